import { describe, expect, it } from 'vitest';
import { mailLanguage, mailTemplates, type MailTemplateName } from './mail.templates';

/** Values for every template, so that each can be drawn in each language. */
const params: { [T in MailTemplateName]: Parameters<(typeof mailTemplates)[T]>[0] } = {
  verificationCode: { firstName: 'Ada', code: '123456' },
  registrationAttempt: { firstName: 'Ada', loginUrl: 'https://t/login', resetUrl: 'https://t/reset' },
  passwordReset: { firstName: 'Ada', resetUrl: 'https://t/reset' },
  passwordChanged: { firstName: 'Ada' },
  twoFactorEnabled: { firstName: 'Ada', securityUrl: 'https://t/security' },
  twoFactorDisabled: { firstName: 'Ada', securityUrl: 'https://t/security' },
  twoFactorFailures: { firstName: 'Ada', wrongCodes: 5, at: '2026-01-05 12:00 UTC', resetUrl: 'https://t/reset', securityUrl: 'https://t/security' },
  twoFactorReset: { firstName: 'Ada', securityUrl: 'https://t/security', supportEmail: 'support@t' },
  kycApproved: { firstName: 'Ada', walletUrl: 'https://t/wallet' },
  kycRejected: { firstName: 'Ada', reason: 'Blurry', kycUrl: 'https://t/kyc' },
  withdrawalConfirm: { firstName: 'Ada', amount: '40.50', coin: 'Bitcoin (BTC)', address: 'bc1q', requestedAt: '2026-01-05 12:00 UTC', confirmUrl: 'https://t/c', minutes: 30, supportEmail: 'support@t' },
  withdrawalDecided: { firstName: 'Ada', amount: '40.50', completed: false, reason: 'Refused', walletUrl: 'https://t/wallet' },
  packActivated: { firstName: 'Ada', pack: 'Gold', amount: '2500.00', endsOn: '2029-01-05', replacedPack: 'Startium', dashboardUrl: 'https://t/dashboard' },
  paymentRejected: { firstName: 'Ada', pack: 'Gold', amount: '2500.00', supportEmail: 'support@t', walletUrl: 'https://t/wallet' },
  withdrawalRequested: { firstName: 'Ada', amount: '40.50', address: 'bc1q', requestedAt: '2026-01-05 12:00 UTC', supportEmail: 'support@t', walletUrl: 'https://t/wallet' },
  investmentMade: { firstName: 'Ada', amount: '100.00', project: 'Casa Azul', investedAt: '2026-01-05 12:00 UTC', projectUrl: 'https://t/p' },
  membershipEndingSoon: { firstName: 'Ada', pack: 'Gold', daysLeft: 1, lastPaidDay: '2026-01-09', walletUrl: 'https://t/wallet' },
  membershipEnded: { firstName: 'Ada', pack: 'Gold', lastPaidDay: '2026-01-09', walletUrl: 'https://t/wallet' },
  adminPromoted: { firstName: 'Ada', loginUrl: 'https://t/login', supportEmail: 'support@t' },
  dividendsPaid: { firstName: 'Ada', amount: '30.00', days: 3, balance: '1250.00', walletUrl: 'https://t/wallet' },
  newProject: { firstName: 'Ada', project: 'Casa Azul', location: 'Lisbon', projectUrl: 'https://t/p' },
  dataExportReady: { firstName: 'Ada', privacyUrl: 'https://t/privacy' },
  accountClosed: { firstName: 'Ada', supportEmail: 'support@t' },
};
const names = Object.keys(params) as MailTemplateName[];
const draw = (name: MailTemplateName, language: 'en' | 'es' | 'fr') =>
  (mailTemplates[name] as (p: unknown, l: ReturnType<typeof mailLanguage>) => { subject: string; text: string; html: string })(params[name], mailLanguage(language));

describe('mails in the recipient’s language', () => {
  it.each(names)('%s is drawn whole in Spanish and French: no key or placeholder left, no English sentence', (name) => {
    const english = draw(name, 'en');
    for (const language of ['es', 'fr'] as const) {
      const mail = draw(name, language);
      for (const part of [mail.subject, mail.text, mail.html]) {
        expect(part).not.toMatch(/mail:|\{\w+\}/);
      }
      expect(mail.subject).not.toBe(english.subject);
      expect(mail.text).not.toContain('Hello Ada,');
      expect(mail.text.split('\n').filter((line) => line.length > 40 && english.text.includes(line))).toEqual([]);
    }
  });

  it('says amounts and days the language’s way, the English mail keeping the API’s forms', () => {
    expect(draw('packActivated', 'en').text).toContain('We received your payment of 2500.00 USD and your Gold pack is now active until 2029-01-05.');
    expect(draw('packActivated', 'es').text).toContain('Hemos recibido su pago de 2500,00 USD y su pack Gold está activo hasta el 5 de enero de 2029.');
    expect(draw('packActivated', 'fr').text).toContain('Nous avons reçu votre paiement de 2\u202f500,00 USD et votre pack Gold est désormais actif jusqu’au 5 janvier 2029.');
    expect(draw('withdrawalRequested', 'es').text).toContain('el 5 de enero de 2026 a las 12:00 UTC');
    expect(draw('dividendsPaid', 'es').text).toContain('El saldo de su cartera es ahora de 1250,00 USD.');
  });

  it('counts days in each language’s plural forms', () => {
    const soon = (daysLeft: number, language: 'en' | 'es' | 'fr') =>
      mailTemplates.membershipEndingSoon({ ...params.membershipEndingSoon, daysLeft }, mailLanguage(language)).subject;
    expect(soon(1, 'en')).toBe('Your Gold membership ends in 1 day | Terrafund');
    expect(soon(3, 'en')).toBe('Your Gold membership ends in 3 days | Terrafund');
    expect(soon(1, 'es')).toBe('Su membresía Gold termina dentro de 1 día | Terrafund');
    expect(soon(3, 'es')).toBe('Su membresía Gold termina dentro de 3 días | Terrafund');
    expect(soon(3, 'fr')).toBe('Votre adhésion Gold se termine dans 3 jours | Terrafund');
  });
});
