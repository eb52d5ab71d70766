import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { resources } from '@terrafund/contracts/i18n/resources';
import { users } from '../../db/schema';
import { fixedClock } from '../../lib/clock';
import { bearer, createUser, loginAs, uniqueEmail, useAdmin, useTestApp } from '../../../test/test-app';
import { bookAddress, fundWallet, txHashFor, withdrawalBody } from '../../../test/withdrawals';

const es = resources.es.messages;
const fr = resources.fr.messages;

/** Issue 35: the API answers in the request's language, and mails go out in the recipient's. */
describe('languages', () => {
  const ctx = useTestApp({ clock: fixedClock(new Date('2026-01-05T12:00:00.000Z')) });
  const admin = useAdmin(ctx);

  const call = (method: InjectOptions['method'], url: string, options: { payload?: object; token?: string; language?: string } = {}) =>
    ctx.app.inject({
      method,
      url: `/api${url}`,
      ...(options.payload ? { payload: options.payload } : {}),
      headers: { ...(options.token ? bearer(options.token) : {}), ...(options.language ? { 'accept-language': options.language } : {}) },
    });
  const wrongSignIn = (language?: string) => call('POST', '/users/login', { payload: { email: uniqueEmail('nobody'), password: 'not-the-password' }, language });
  const localeOf = async (id: string) => (await ctx.database.db.select({ locale: users.locale }).from(users).where(eq(users.id, id)))[0]!.locale;
  const signUp = (language: string | undefined, overrides: Record<string, string> = {}) => {
    const body = { firstName: 'Jane', lastName: 'Doe', email: uniqueEmail('lang'), password: 'a-long-enough-password', phone: '+1 555 0100', ...overrides };
    return call('POST', '/users/register', { payload: body, language }).then((response) => ({ response, email: body.email }));
  };

  describe('error answers', () => {
    it('say the message in the language Accept-Language asks for; the code stays English', async () => {
      const spanish = await wrongSignIn('es-ES,es;q=0.9');
      expect(spanish.statusCode).toBe(400);
      expect(spanish.json()).toEqual({ message: 'Correo electrónico o contraseña incorrectos', code: 'INVALID_CREDENTIALS' });
      expect(spanish.json().message).toBe(es.auth.invalidCredentials);

      const french = await wrongSignIn('fr-CA');
      expect(french.json()).toEqual({ message: fr.auth.invalidCredentials, code: 'INVALID_CREDENTIALS' });
    });

    it('honour the q-values, and answer in English when no language asked for is spoken', async () => {
      expect((await wrongSignIn('fr;q=0.5, es;q=0.8, en;q=0.1')).json().message).toBe(es.auth.invalidCredentials);
      expect((await wrongSignIn('es;q=0, fr')).json().message).toBe(fr.auth.invalidCredentials);
      expect((await wrongSignIn('de-DE, it;q=0.9')).json().message).toBe(messages.auth.invalidCredentials);
      // No header at all: today's English answer, byte for byte.
      expect((await wrongSignIn()).body).toBe('{"message":"Invalid email or password","code":"INVALID_CREDENTIALS"}');
    });

    it('say each zod field message in the language, the first one as the message', async () => {
      const { response } = await signUp('fr', { firstName: 'J', email: 'not-an-address' });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.fields).toMatchObject({ firstName: fr.validation.nameTooShort, email: fr.validation.emailInvalid });
      expect(Object.values(body.fields)).toContain(body.message);
      expect(body.message).not.toMatch(/[A-Z][a-z]+ must be/);
    });

    it('fill a message’s values into its translation', async () => {
      const { email } = await signUp('es');
      // Right after the sign-up's code, a new one is refused for the cooldown, its seconds said in Spanish.
      const refused = await call('POST', '/users/resend-otp', { payload: { email }, language: 'es' });
      expect(refused.statusCode).toBe(429);
      const seconds = refused.json().retryAfter as number;
      expect(refused.json().message).toBe(es.auth.resendCooldown.replace('{seconds}', String(seconds)));
    });
  });

  it('says a success answer’s message in the language too', async () => {
    const spanish = await call('POST', '/users/forgot-password', { payload: { email: uniqueEmail('nobody') }, language: 'es' });
    expect(spanish.statusCode).toBe(200);
    expect(spanish.json()).toEqual({ message: es.auth.resetEmailSent });
    const english = await call('POST', '/users/forgot-password', { payload: { email: uniqueEmail('nobody') } });
    expect(english.json()).toEqual({ message: messages.auth.resetEmailSent });
    const signedUp = await signUp('fr');
    expect(signedUp.response.json().message).toBe(fr.auth.verificationSent);
  });

  describe('a signed-in member', () => {
    it('is answered in their own locale, whatever Accept-Language says', async () => {
      const member = await createUser(ctx, { locale: 'fr' });
      const token = await loginAs(ctx, member.email);
      const response = await call('PATCH', '/users/profile', { token, payload: { firstName: 'J' }, language: 'es' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: fr.validation.nameTooShort, code: 'VALIDATION_ERROR', fields: { firstName: fr.validation.nameTooShort } });
    });

    it('changes their locale with PATCH /api/users/profile {locale}, which the user object then carries', async () => {
      const member = await createUser(ctx);
      const token = await loginAs(ctx, member.email);
      expect((await call('GET', '/users/profile', { token })).json().locale).toBe('en');

      const changed = await call('PATCH', '/users/profile', { token, payload: { locale: 'es' } });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({ locale: 'es', firstName: member.firstName, role: 'user' });
      expect((await call('GET', '/users/profile', { token })).json().locale).toBe('es');
      expect(await localeOf(member.id)).toBe('es');
      // From now on the member's errors are Spanish, without any Accept-Language.
      expect((await call('PATCH', '/users/profile', { token, payload: { firstName: 'J' } })).json().message).toBe(es.validation.nameTooShort);
    });

    it('refuses a language the product does not speak, with a clear message, and changes nothing', async () => {
      const member = await createUser(ctx);
      const token = await loginAs(ctx, member.email);
      const refused = await call('PATCH', '/users/profile', { token, payload: { locale: 'de', firstName: 'Changed' } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        message: messages.validation.localeInvalid,
        code: 'VALIDATION_ERROR',
        fields: { locale: messages.validation.localeInvalid },
      });
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, member.id));
      expect(row).toMatchObject({ locale: 'en', firstName: member.firstName });
    });

    it('cannot change their role along with the locale, and no one changes a locale signed out', async () => {
      const member = await createUser(ctx);
      const token = await loginAs(ctx, member.email);
      const response = await call('PATCH', '/users/profile', { token, payload: { locale: 'fr', role: 'admin' } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ locale: 'fr', role: 'user' });
      const signedOut = await call('PATCH', '/users/profile', { payload: { locale: 'es' }, language: 'es' });
      expect(signedOut.statusCode).toBe(401);
      expect(signedOut.json()).toEqual({ message: es.auth.sessionExpired, code: 'UNAUTHENTICATED' });
      expect(await localeOf(member.id)).toBe('fr');
    });
  });

  describe('mail', () => {
    it('sends the sign-up’s code in the language the sign-up was made in, and keeps it as the locale', async () => {
      await ctx.deliverMail();
      const { response, email } = await signUp('fr-FR, en;q=0.5');
      expect(response.statusCode).toBe(201);
      const [mail] = (await ctx.deliverMail()).filter((m) => m.to === email);
      expect(mail!.subject).toBe('Votre code de vérification | Terrafund');
      expect(mail!.text).toContain('Bonjour Jane,');
      expect(mail!.text).toContain('Utilisez ce code pour vérifier votre adresse e-mail. Il expire dans 10 minutes.');
      expect(mail!.text).toMatch(/\b\d{6}\b/);
      expect(mail!.html).toContain('<p>Bonjour Jane,</p>');
      const [row] = await ctx.database.db.select({ locale: users.locale }).from(users).where(eq(users.email, email));
      expect(row!.locale).toBe('fr');
    });

    it('lets the sign-up body name its language, over Accept-Language', async () => {
      await ctx.deliverMail();
      const { response, email } = await signUp('fr', { locale: 'es' });
      expect(response.statusCode).toBe(201);
      const [mail] = (await ctx.deliverMail()).filter((m) => m.to === email);
      expect(mail!.subject).toBe('Su código de verificación | Terrafund');
      expect(mail!.text).toContain('Hola, Jane:');
      const invalid = await signUp(undefined, { locale: 'de' });
      expect(invalid.response.statusCode).toBe(400);
      expect(invalid.response.json().fields.locale).toBe(messages.validation.localeInvalid);
    });

    it('writes a French member’s withdrawal mails in French, amounts and dates the French way', async () => {
      const member = await createUser(ctx, { locale: 'fr', kycStatus: 'approved', kycVerified: true });
      await fundWallet(ctx, member.id, 300_000);
      await bookAddress(ctx, member.id);
      const token = await loginAs(ctx, member.email);
      await ctx.deliverMail();

      // The member's locale, not the request's Accept-Language, picks the language of what they are told.
      const refused = await call('POST', '/transactions', { token, payload: withdrawalBody(24.99), language: 'en' });
      expect(refused.json()).toMatchObject({ message: fr.wallet.minWithdrawal, code: 'VALIDATION_ERROR' });
      const requested = await call('POST', '/transactions', { token, payload: withdrawalBody(2_040.5), language: 'en' });
      expect(requested.statusCode).toBe(201);
      const id = requested.json().transaction._id as string;
      const completed = await call('PATCH', `/transactions/${id}/status`, { token: admin.token, payload: { status: 'completed', txHash: txHashFor('BTC') } });
      expect(completed.statusCode).toBe(200);

      const mail = (await ctx.deliverMail()).filter((m) => m.to === member.email);
      expect(mail.map((m) => m.subject)).toEqual(['Un retrait a été demandé depuis votre compte | Terrafund', 'Votre retrait a été envoyé | Terrafund']);
      expect(mail[0]!.text).toContain('Un retrait de 2\u202f040,50 Crypto a été demandé depuis votre compte le 5 janvier 2026 à 12:00 UTC, vers cette adresse :');
      expect(mail[1]!.text).toContain('Bonjour Test,');
      expect(mail[1]!.text).toContain('Votre retrait de 2\u202f040,50 Crypto a été effectué.');
      expect(mail[1]!.text).toContain(`Hash de la transaction : ${txHashFor('BTC')}`);
      expect(mail[1]!.text).toContain('Voir votre portefeuille: https://app.terrafund.test/wallet');
      // An optional kind's unsubscribe line, in French too.
      expect(mail[1]!.text).toMatch(/Pour ne plus recevoir ces e-mails \(Retraits\), ouvrez https:\/\/app\.terrafund\.test\/unsubscribe\?token=/);
      expect(mail[1]!.html).toContain('désabonnez-vous</a>.');
      expect(mail[1]!.html).toContain('— L’équipe Terrafund');
    });
  });
});
