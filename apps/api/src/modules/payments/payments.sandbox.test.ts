import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, PACKS } from '@terrafund/contracts';
import { checkoutOf } from '../../../test/sandbox-checkout';
import { bearer, createUser, loginAs, rows, useTestApp } from '../../../test/test-app';
import { memberships, paymentInvoices, paymentNotifications, sandboxInvoices, transactions } from '../../db/schema';
import { DOCUMENT_HEADERS } from '../../lib/security-headers';
import { memberBalance } from '../ledger';
import { checkLedger } from '../reports';

/**
 * The deposit flow end to end with the built-in sandbox (the default provider), through the routes only:
 * POST /api/transactions → the checkout page → Pay now / Let it expire → the signed notification to our own
 * webhook → the return route → the wallet.
 */
describe('deposits through the sandbox provider', () => {
  const ctx = useTestApp();

  const publicUrl = 'https://app.terrafund.test';
  const db = () => ctx.database.db;

  async function member() {
    const user = await createUser(ctx); // KYC not started: buying a pack does not need it
    return { user, token: await loginAs(ctx, user.email) };
  }

  const deposit = (token: string | undefined, payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: token ? bearer(token) : {}, payload: payload as object });

  /** Creates a deposit and answers its transaction and its opened checkout. */
  async function startDeposit(token: string, plan: string) {
    const response = await deposit(token, { type: 'deposit', plan });
    expect(response.statusCode, response.body).toBe(201);
    const { transaction, payment_url } = response.json<{ transaction: { _id: string }; payment_url: string }>();
    const opened = await checkoutOf(ctx.app, payment_url);
    return { transaction, checkout: opened.page, opened, invoiceId: opened.invoiceId };
  }

  const page = (path: string) => ctx.app.inject({ method: 'GET', url: path });
  /** What a browser sends when a button of the checkout page is pressed: the page's form, from our origin. */
  const press = (opened: Awaited<ReturnType<typeof checkoutOf>>, action: 'pay' | 'expire') => opened.press(action);

  /** Follows the redirect to our return route, which redirects again to a wallet page. */
  async function landing(location: string | undefined) {
    expect(location).toMatch(new RegExp(`^${publicUrl}/api/payments/return/sandbox\\?orderId=`));
    const response = await page(location!.slice(publicUrl.length));
    expect(response.statusCode).toBe(302);
    return response.headers.location;
  }

  const depositRow = async (id: string) => (await db().select().from(transactions).where(eq(transactions.id, id)))[0]!;
  const membershipsOf = (userId: string) => db().select().from(memberships).where(eq(memberships.userId, userId)).orderBy(memberships.startedAt);

  it('opens a pending deposit for each plan at its price, ignoring the amount, status and user the client sends', async () => {
    const { user, token } = await member();
    for (const pack of PACKS) {
      const response = await deposit(token, {
        type: 'deposit',
        plan: pack.id.toUpperCase(),
        amount: 1,
        status: 'completed',
        userId: 'someone-else',
        _id: 'x',
        description: 'free pack',
      });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['payment_url', 'transaction']);
      expect(body.transaction).toMatchObject({
        type: 'deposit',
        amount: pack.price,
        status: 'pending',
        userId: user.id,
        plan: pack.id,
        description: `${pack.name.charAt(0).toUpperCase()}${pack.name.slice(1)} pack purchase`,
      });
      expect(body.payment_url).toMatch(new RegExp(`^${publicUrl}/api/payments/sandbox/checkout/[A-Za-z0-9_-]{22}\\?key=[A-Za-z0-9_-]{43}$`));
      const [invoice] = await db().select().from(paymentInvoices).where(eq(paymentInvoices.transactionId, body.transaction._id));
      expect(invoice).toMatchObject({ provider: 'sandbox', state: 'pending', pack: pack.id, amountCents: pack.price * 100, userId: user.id });
      const [sandbox] = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.id, invoice!.invoiceId));
      expect(sandbox).toMatchObject({ orderId: body.transaction._id, amountCents: pack.price * 100, status: 'New' });
      expect(sandbox!.returnUrl).toBe(`${publicUrl}/api/payments/return/sandbox?orderId=${body.transaction._id}`);
    }
    const listed = (await ctx.app.inject({ method: 'GET', url: '/api/transactions', headers: bearer(token) })).json();
    expect(listed.map((t: { plan: string }) => t.plan).sort()).toEqual(PACKS.map((p) => p.id).sort());
    expect(await membershipsOf(user.id)).toEqual([]);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('refuses a missing or unknown plan, a wrong type, and an anonymous caller', async () => {
    const { user, token } = await member();
    for (const payload of [{ type: 'deposit' }, { type: 'deposit', plan: 'diamond' }, { type: 'deposit', plan: 42 }, { type: 'deposit', plan: null }]) {
      const response = await deposit(token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ message: messages.wallet.planRequired, code: 'VALIDATION_ERROR', fields: { plan: messages.wallet.planRequired } });
    }
    for (const payload of [{ plan: 'gold' }, { type: 'payout', plan: 'gold' }, { type: 'investment' }, { type: 7 }]) {
      const response = await deposit(token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(messages.wallet.typeInvalid);
    }
    const anonymous = await deposit(undefined, { type: 'deposit', plan: 'gold' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
    expect(await db().select().from(transactions).where(eq(transactions.userId, user.id))).toEqual([]);
  });

  it('pays: checkout page, Pay now, back to the success page; the pack is active, mailed and on the dashboard', async () => {
    const { user, token } = await member();
    const { transaction, checkout, opened } = await startDeposit(token, 'gold');

    const html = await page(checkout);
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('$2,500.00');
    expect(html.body).toContain('Gold pack purchase');
    expect(html.body).toMatch(/<button type="submit">Pay now<\/button>/);
    expect(html.body).toMatch(/<button type="submit" class="secondary">Let it expire<\/button>/);
    expect(html.body).toContain(`action="${opened.bare}/pay?key=${opened.key}"`);
    expect(html.body).toMatch(/<input type="hidden" name="csrf" value="[A-Za-z0-9_-]{43}">/);
    expect(html.headers['referrer-policy']).toBe('same-origin');
    // A page, though under /api: a page's security headers, not only a JSON answer's.
    for (const [name, value] of Object.entries(DOCUMENT_HEADERS)) expect(html.headers[name], name).toBe(value);
    expect(html.body).not.toMatch(/<script/i);
    const csp = String(html.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self' https:\/\/app\.terrafund\.test;/);
    expect(csp).not.toContain('unsafe-inline');

    const paid = await press(opened, 'pay');
    expect(paid.statusCode).toBe(303);
    expect(await landing(paid.headers.location)).toBe(`${publicUrl}/wallet/payment/success`);

    expect(await depositRow(transaction._id)).toMatchObject({ status: 'completed', amountCents: 250_000 });
    const [membership] = await membershipsOf(user.id);
    expect(membership).toMatchObject({ pack: 'gold', status: 'active', priceCents: 250_000, depositTransactionId: transaction._id });
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(250_000);
    expect(await memberBalance(db(), user.id, 'member_wallet')).toBe(0);

    const dashboard = (await ctx.app.inject({ method: 'GET', url: '/api/users/dashboard', headers: bearer(token) })).json();
    expect(dashboard).toMatchObject({ membership: 'gold', totalAssets: 2500, walletBalance: 0 });
    const profile = (await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json();
    expect(profile).toMatchObject({ membershipLevel: 'gold', balance: 0 });

    const mail = (await ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail.map((m) => m.subject)).toEqual(['Your Gold pack is active | Terrafund']);
    expect(mail[0]!.text).toContain('We received your payment of 2500.00 USD');

    // The page now says so, with no buttons; a second Pay is refused and changes nothing.
    const after = await page(checkout);
    expect(after.body).toContain('<h1>Invoice paid</h1>');
    expect(after.body).not.toContain('<form');
    expect(after.body).toContain(`href="${publicUrl}/api/payments/return/sandbox?orderId=${transaction._id}"`);
    const again = await press(opened, 'pay');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: messages.wallet.invoicePaid, code: 'CONFLICT' });
    expect(await press(opened, 'expire').then((r) => r.statusCode)).toBe(409);
    expect(await membershipsOf(user.id)).toHaveLength(1);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('lets it expire: the deposit fails, the member lands on the timeout page, and paying afterwards is refused', async () => {
    const { user, token } = await member();
    const { transaction, opened } = await startDeposit(token, 'startium');

    const expired = await press(opened, 'expire');
    expect(expired.statusCode).toBe(303);
    expect(await landing(expired.headers.location)).toBe(`${publicUrl}/wallet/payment/timeout`);
    expect((await depositRow(transaction._id)).status).toBe('failed');
    const [invoice] = await db().select().from(paymentInvoices).where(eq(paymentInvoices.transactionId, transaction._id));
    expect(invoice).toMatchObject({ state: 'expired', rawStatus: 'Expired' });

    const late = await press(opened, 'pay');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(messages.wallet.invoiceExpired);
    expect((await depositRow(transaction._id)).status).toBe('failed');
    expect(await membershipsOf(user.id)).toEqual([]);
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(0);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('refuses Pay now once the expiry time has passed, even before anyone expired the invoice', async () => {
    const { user, token } = await member();
    const { checkout, opened } = await startDeposit(token, 'ultimium');
    ctx.clock.advance(31 * 60_000);
    try {
      const html = await page(checkout);
      expect(html.body).toContain('<h1>Invoice expired</h1>');
      expect(html.body).not.toContain('<form');
      const late = await press(opened, 'pay');
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toBe(messages.wallet.invoiceExpired);
      expect(await membershipsOf(user.id)).toEqual([]);
    } finally {
      ctx.clock.advance(-31 * 60_000);
    }
  });

  it('Switch Plan: the new pack replaces the active one and the old price moves to packs retired', async () => {
    const { user, token } = await member();
    const retired = async () =>
      (await rows<{ balance: string }>(ctx, sql`select balance_cents::text as balance from ledger_accounts where code = 'platform:packs_retired'`))[0]!.balance;
    const retiredBefore = Number(await retired());

    const first = await startDeposit(token, 'startium');
    await press(first.opened, 'pay');
    ctx.clock.advance(60_000);
    const second = await startDeposit(token, 'platinum');
    await press(second.opened, 'pay');

    const [old, current] = await membershipsOf(user.id);
    expect(old).toMatchObject({ pack: 'startium', status: 'replaced', depositTransactionId: first.transaction._id });
    expect(old!.replacedAt).toEqual(current!.startedAt);
    expect(current).toMatchObject({ pack: 'platinum', status: 'active', priceCents: 500_000, depositTransactionId: second.transaction._id });
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(500_000);
    expect(Number(await retired()) - retiredBefore).toBe(70_000);

    const dashboard = (await ctx.app.inject({ method: 'GET', url: '/api/users/dashboard', headers: bearer(token) })).json();
    expect(dashboard).toMatchObject({ membership: 'platinum', totalAssets: 5000 });
    const mail = (await ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail.map((m) => m.subject)).toEqual(['Your Startium pack is active | Terrafund', 'Your Platinum pack is active | Terrafund']);
    expect(mail[1]!.text).toContain('It replaces your Startium pack');
    expect(await checkLedger(db())).toEqual([]);
  });

  it('answers the open invoice again when the same plan is asked for twice, and a new one for another plan', async () => {
    const { user, token } = await member();
    const first = await deposit(token, { type: 'deposit', plan: 'gold' });
    const again = await deposit(token, { type: 'deposit', plan: 'gold' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const other = await deposit(token, { type: 'deposit', plan: 'startium' });
    expect(other.json().payment_url).not.toBe(first.json().payment_url);

    const simultaneous = await Promise.all(Array.from({ length: 10 }, () => deposit(token, { type: 'deposit', plan: 'platinum' })));
    const created = simultaneous.filter((r) => r.statusCode === 201);
    expect(new Set(created.map((r) => r.json().transaction._id)).size).toBe(1);
    for (const r of simultaneous.filter((r) => r.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe(messages.wallet.depositPending);
    }
    expect(await db().select().from(paymentInvoices).where(eq(paymentInvoices.userId, user.id))).toHaveLength(3);

    // Once it has expired, asking again opens a fresh invoice.
    const { checkout, opened } = await startDeposit(token, 'ultimium');
    await press(opened, 'expire');
    const fresh = await startDeposit(token, 'ultimium');
    expect(fresh.checkout).not.toBe(checkout);
  });

  it('keeps the sandbox webhook to notifications the sandbox signed', async () => {
    const { user, token } = await member();
    const { transaction, invoiceId } = await startDeposit(token, 'gold');
    const body = JSON.stringify({ deliveryId: 'forged', originalDeliveryId: 'forged', type: 'InvoiceSettled', invoiceId, metadata: { orderId: transaction._id } });
    const forged = [
      {},
      { 'sandbox-sig': 'sha256=' + '0'.repeat(64) },
      { 'sandbox-sig': 'not a signature' },
      { 'btcpay-sig': 'sha256=' + '0'.repeat(64) },
    ];
    for (const headers of forged) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/sandbox',
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'Invalid notification signature', code: 'FORBIDDEN' });
    }
    // Even a true "paid" state does not settle without a notification: nothing was delivered.
    expect((await depositRow(transaction._id)).status).toBe('pending');
    expect(await db().select().from(paymentNotifications).where(eq(paymentNotifications.invoiceId, invoiceId))).toEqual([]);
    expect(await membershipsOf(user.id)).toEqual([]);
    // The other providers' addresses are closed while the sandbox is configured.
    for (const provider of ['btcpay', 'nowpayments']) {
      const response = await ctx.app.inject({ method: 'POST', url: `/api/payments/webhooks/${provider}`, headers: { 'content-type': 'application/json' }, payload: body });
      expect(response.statusCode).toBe(404);
    }
  });

  it('opens the checkout and its buttons only with the capability of its payment URL', async () => {
    const { user, token } = await member();
    const { transaction, opened } = await startDeposit(token, 'gold');
    const other = await startDeposit(token, 'startium');
    // 256 bits, a different one for each invoice.
    expect(opened.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(other.opened.key).not.toBe(opened.key);

    const flipped = `${opened.key.slice(0, -1)}${opened.key.endsWith('A') ? 'B' : 'A'}`;
    for (const query of ['', '?key=', `?key=${flipped}`, `?key=${other.opened.key}`, `?key=${opened.key.slice(0, 22)}`, `?key=${opened.invoiceId}`]) {
      const response = await page(`${opened.bare}${query}`);
      expect(response.statusCode, query).toBe(404);
      expect(response.body, query).not.toContain('csrf');
    }
    for (const key of [null, '', flipped, other.opened.key]) {
      for (const action of ['pay', 'expire'] as const) {
        const response = await opened.press(action, { key });
        expect(response.statusCode, `${action} ${key}`).toBe(404);
        expect(response.json()).toEqual({ message: messages.wallet.invoiceNotFound, code: 'NOT_FOUND' });
      }
    }
    await expectUnsettled(user.id, transaction._id, opened.invoiceId);
  });

  it('refuses a checkout form sent from another site or without its CSRF token, and settles nothing', async () => {
    const { user, token } = await member();
    const { transaction, opened } = await startDeposit(token, 'gold');
    const crossSite = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'https://app.terrafund.test.evil.example' },
      { origin: 'http://app.terrafund.test' },
      { origin: 'not a url' },
      { origin: '', referer: 'https://evil.example/pay-for-me' },
    ];
    for (const headers of crossSite) {
      for (const action of ['pay', 'expire'] as const) {
        // An empty Origin header is the same as none: the Referer speaks.
        const sent = headers.origin === '' ? { referer: headers.referer!, origin: undefined } : headers;
        const response = await ctx.app.inject({
          method: 'POST',
          url: `${opened.bare}/${action}?key=${opened.key}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(sent.origin === undefined ? {} : { origin: sent.origin }), ...('referer' in sent ? { referer: sent.referer } : {}) },
          payload: `csrf=${(await page(opened.page)).body.match(/name="csrf" value="([^"]+)"/)![1]}`,
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        expect(response.json()).toEqual({ message: messages.payments.checkoutCrossSite, code: 'FORBIDDEN' });
      }
    }
    const otherToken = (await page((await startDeposit(token, 'startium')).opened.page)).body.match(/name="csrf" value="([^"]+)"/)![1]!;
    for (const csrf of [null, '', 'x'.repeat(43), otherToken]) {
      for (const action of ['pay', 'expire'] as const) {
        const response = await opened.press(action, { token: csrf });
        expect(response.statusCode, `${action} ${csrf}`).toBe(403);
        expect(response.json()).toEqual({ message: messages.payments.checkoutFormInvalid, code: 'FORBIDDEN' });
      }
    }
    await expectUnsettled(user.id, transaction._id, opened.invoiceId);

    // The same form from our own page, named by its Referer when no Origin is sent, goes through.
    const paid = await opened.press('pay', { headers: { origin: '', referer: `${publicUrl}${opened.page}` } });
    expect(paid.statusCode, paid.body).toBe(303);
    expect((await depositRow(transaction._id)).status).toBe('completed');
  });

  /** Nothing happened: the deposit pending, the sandbox invoice open, no notification, no pack. */
  async function expectUnsettled(userId: string, transactionId: string, invoiceId: string) {
    expect((await depositRow(transactionId)).status).toBe('pending');
    const [sandbox] = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.id, invoiceId));
    expect(sandbox!.status).toBe('New');
    expect(await db().select().from(paymentNotifications).where(eq(paymentNotifications.invoiceId, invoiceId))).toEqual([]);
    expect(await membershipsOf(userId)).toEqual([]);
  }

  it('answers unknown and malformed checkout ids with 404, and odd return addresses with the timeout page', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', '%00%00%00%00%00%00%00%00%00%00%00', 'a'.repeat(150), '..%2F..%2Fetc']) {
      expect((await page(`/api/payments/sandbox/checkout/${id}`)).statusCode, id).toBe(404);
      const pressed = await ctx.app.inject({
        method: 'POST',
        url: `/api/payments/sandbox/checkout/${id}/pay`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicUrl },
        payload: '',
      });
      expect(pressed.statusCode, id).toBe(404);
    }
    const timeout = `${publicUrl}/wallet/payment/timeout`;
    for (const query of ['', '?orderId=', '?orderId=not-a-uuid', `?orderId=${crypto.randomUUID()}`, '?orderId=a&orderId=b']) {
      const response = await page(`/api/payments/return/sandbox${query}`);
      expect(response.statusCode, query).toBe(302);
      expect(response.headers.location, query).toBe(timeout);
    }
    // A NUL is refused before any route sees it (plugins/input.ts), as everywhere.
    expect((await page('/api/payments/return/sandbox?orderId=%00')).statusCode).toBe(400);
    // A real order under another provider's name is not found either.
    const { token } = await member();
    const { transaction } = await startDeposit(token, 'gold');
    expect((await page(`/api/payments/return/btcpay?orderId=${transaction._id}`)).headers.location).toBe(timeout);
    // Still pending and unpaid: the member came back without paying.
    expect((await page(`/api/payments/return/sandbox?orderId=${transaction._id}`)).headers.location).toBe(timeout);
  });
});
