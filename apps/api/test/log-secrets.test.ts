import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { processOutbox } from '../src/modules/mail/mail.service';
import { logTransport, memoryTransport, type MailTransport } from '../src/modules/mail/mail.transport';
import { startFakeBtcpay, FAKE_BTCPAY, type FakeBtcpay } from './fake-http-server';
import { png, multipart } from './files';
import { checkoutOf } from './sandbox-checkout';
import { bearer, codeFrom, createTestApp, resetTokenFrom, testPayments, type TestContext } from './test-app';

/** Every line a logger at level trace writes, kept in memory. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: pino({ level: 'trace' }, stream) };
}

/** The mail as a test reads it (memory) and as the server would log it without SMTP outside development. */
function teeTransport(logged: MailTransport) {
  const memory = memoryTransport();
  return {
    sent: memory.sent,
    async send(mail: Parameters<MailTransport['send']>[0]) {
      await memory.send(mail);
      await logged.send(mail);
    },
  };
}

/**
 * Secrets stay out of the log, at every level (docs/security.md): the flows that handle a verification code, a
 * reset token and link, a session token, a webhook signature, an API key, a sandbox checkout capability and a
 * signed document link run against an app whose logger keeps every line at trace; none of those values
 * may appear in any line. The mail-to-log transport withholds bodies outside development.
 */
describe('secrets in the log', () => {
  const secrets = new Map<string, string>();
  const remember = (what: string, value: string | undefined | null) => {
    expect(value, what).toBeTruthy();
    secrets.set(what, value!);
  };

  let ctx: TestContext;
  let log: ReturnType<typeof capture>;
  let mail: ReturnType<typeof teeTransport>;
  beforeAll(async () => {
    log = capture();
    ctx = await createTestApp({ logger: log.logger, config: { env: 'production' } });
    mail = teeTransport(logTransport(log.logger, { printBodies: false }));
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: `/api${url}`, payload, headers });
  async function deliver() {
    const before = mail.sent.length;
    await processOutbox(ctx.database.db, { secrets: ctx.app.deps.secrets, clock: ctx.clock, transport: mail, from: 'Terrafund <t@example.com>', logger: log.logger });
    return mail.sent.slice(before);
  }

  it('keeps codes, reset tokens, sessions, signatures, capabilities and signed links out of every line', async () => {
    const email = `log.secrets.${Date.now()}@example.com`;
    const password = 'Quiet-Lantern-47!';

    // Registration and verification: the code, then a session token.
    expect((await post('/users/register', { firstName: 'Lena', lastName: 'Log', email, password, phone: '+1 555 0100' })).statusCode).toBe(201);
    const code = codeFrom(await deliver(), email);
    remember('verification code', code);
    const verified = await post('/users/verify-otp', { email, otp: code });
    expect(verified.statusCode, verified.body).toBe(200);
    remember('session token (verify)', verified.json<{ token: string }>().token);

    // Reset: the token and the link, opened the way a mail client opens it, then used.
    expect((await post('/users/forgot-password', { email })).statusCode).toBe(200);
    const resetMail = await deliver();
    const resetToken = resetTokenFrom(resetMail, email);
    remember('reset token', resetToken);
    const link = resetMail.find((m) => m.to === email)!.text.match(/https?:\/\/\S*reset-password\?token=\S+/)![0];
    remember('reset link', link);
    await ctx.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    const newPassword = 'Tf-correct-horse-9';
    expect((await post('/users/reset-password', { token: resetToken, newPassword })).statusCode).toBe(200);

    // Sign-in: the session token, sent back on later requests.
    const login = await post('/users/login', { email, password: newPassword, rememberMe: false });
    expect(login.statusCode, login.body).toBe(200);
    const token = login.json<{ token: string }>().token;
    remember('session token (login)', token);
    await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
    await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: `Bearer ${token}x` } });

    // A KYC document and its signed link, fetched.
    const body = multipart([
      { name: 'documentType', value: 'idFront' },
      { name: 'file', filename: 'id.png', contentType: 'image/png', data: png({ seed: 3 }) },
    ]);
    const uploaded = await ctx.app.inject({ method: 'POST', url: '/api/kyc/upload-document', payload: body.payload, headers: { 'content-type': body.contentType, ...bearer(token) } });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const signed = await ctx.app.inject({ method: 'GET', url: `${uploaded.json<{ fileUrl: string }>().fileUrl}/link`, headers: bearer(token) });
    const fileUrl = signed.json<{ url: string }>().url;
    remember('document link signature', new URL(fileUrl, 'https://x.test').searchParams.get('sig'));
    expect((await ctx.app.inject({ method: 'GET', url: fileUrl })).statusCode).toBe(200);

    // The sandbox checkout: its capability in the URL, its form token, the notification's signature.
    const deposit = await post('/transactions', { type: 'deposit', plan: 'gold' }, bearer(token));
    expect(deposit.statusCode, deposit.body).toBe(201);
    const checkout = await checkoutOf(ctx.app, deposit.json<{ payment_url: string }>().payment_url);
    remember('checkout capability', checkout.key);
    const page = await ctx.app.inject({ method: 'GET', url: checkout.page });
    remember('checkout form token', /name="csrf" value="([^"]+)"/.exec(page.body)?.[1]);
    expect((await checkout.press('pay')).statusCode).toBe(303);
    // A notification signed with the sandbox's key, delivered twice, and a forged one.
    const notification = Buffer.from(JSON.stringify({ deliveryId: 'log-test', type: 'InvoiceSettled', invoiceId: checkout.invoiceId }));
    const signature = `sha256=${createHmac('sha256', ctx.app.deps.secrets.sandboxWebhookKey).update(notification).digest('hex')}`;
    remember('webhook signature', signature.slice('sha256='.length));
    for (const sig of [signature, signature, `sha256=${'ab'.repeat(32)}`]) {
      await ctx.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: { 'content-type': 'application/json', 'sandbox-sig': sig }, payload: notification });
    }
    await deliver();

    expect(log.lines.length).toBeGreaterThan(20);
    // The access log still says what was asked for, without the query.
    expect(log.lines.some((line) => line.includes('"url":"/reset-password?[redacted]"'))).toBe(true);
    expect(log.lines.some((line) => line.includes(`"url":"${checkout.bare}?[redacted]"`))).toBe(true);
    expectNoSecretIn(log.lines);
  });

  /** Each remembered secret, and each session token's random half, is absent from every line. */
  function expectNoSecretIn(lines: string[]) {
    const values = [...secrets].flatMap(([what, value]) => {
      const parts: Array<[string, string]> = [[what, value]];
      if (what.startsWith('session token')) parts.push([`${what}, random part`, value.split('.').pop()!]);
      if (what === 'reset token') parts.push([`${what}, url-encoded`, encodeURIComponent(value)]);
      return parts;
    });
    for (const line of lines) {
      for (const [what, value] of values) expect(line.includes(value), `${what} in ${line}`).toBe(false);
    }
  }

  describe('a real provider', () => {
    let btcpay: FakeBtcpay;
    let provider: TestContext;
    let providerLog: ReturnType<typeof capture>;
    beforeAll(async () => {
      btcpay = await startFakeBtcpay();
      providerLog = capture();
      provider = await createTestApp({ logger: providerLog.logger, config: { payments: testPayments.btcpay(btcpay.url) } });
    });
    afterAll(async () => {
      await provider.close();
      await btcpay.close();
    });

    it('keeps its API key and webhook signatures out of the log, also when it fails', async () => {
      const email = `log.btcpay.${Date.now()}@example.com`;
      const { createUser, loginAs } = await import('./test-app');
      const user = await createUser(provider, { email });
      const token = await loginAs(provider, user.email);
      const deposit = await provider.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan: 'gold' } });
      expect(deposit.statusCode, deposit.body).toBe(201);
      const invoiceId = deposit.json<{ payment_url: string }>().payment_url.split('/').pop()!;
      const delivery = btcpay.delivery(invoiceId, 'InvoiceSettled');
      btcpay.down();
      // The provider is down while confirming (503, logged with the error) and while creating an invoice.
      expect((await provider.app.inject({ method: 'POST', url: '/api/payments/webhooks/btcpay', headers: delivery.headers, payload: delivery.body })).statusCode).toBe(503);
      await provider.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan: 'startium' } });
      btcpay.up();
      btcpay.set(invoiceId, { status: 'Settled' });
      expect((await provider.app.inject({ method: 'POST', url: '/api/payments/webhooks/btcpay', headers: delivery.headers, payload: delivery.body })).statusCode).toBe(200);

      expect(providerLog.lines.some((line) => line.includes('payment provider unreachable'))).toBe(true);
      const signature = Object.entries(delivery.headers).find(([name]) => name.toLowerCase() === 'btcpay-sig')![1];
      for (const line of providerLog.lines) {
        for (const [what, value] of [
          ['API key', FAKE_BTCPAY.apiKey],
          ['webhook secret', FAKE_BTCPAY.webhookSecret],
          ['webhook signature', signature.replace(/^sha256=/, '')],
          ['session token', token.split('.').pop()!],
        ]) {
          expect(line.includes(value!), `${what} in ${line}`).toBe(false);
        }
      }
    });
  });
});

describe('the mail-to-log transport', () => {
  const mail = { from: 'Terrafund <t@example.com>', to: 'someone@example.com', subject: 'Your verification code | Terrafund', text: 'Your code: 482913', html: '<p>482913</p>' };

  it('prints the body in development only, which is its job there', async () => {
    const development = capture();
    await logTransport(development.logger, { printBodies: true }).send(mail);
    expect(development.lines.join('\n')).toContain('482913');

    const elsewhere = capture();
    await logTransport(elsewhere.logger, { printBodies: false }).send(mail);
    expect(elsewhere.lines).toHaveLength(1);
    expect(elsewhere.lines[0]).toContain('someone@example.com');
    expect(elsewhere.lines[0]).not.toContain('482913');
  });
});
