import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages, type HeldPayment } from '@terrafund/contracts';
import { startFakeBtcpay, type FakeBtcpay } from '../../../test/fake-http-server';
import { bearer, createTestApp, createUser, loginAs, randomId, rows, testPayments, type TestContext } from '../../../test/test-app';
import { auditLog, memberships, paymentInvoices, transactions } from '../../db/schema';
import { memberBalance } from '../ledger';
import { checkLedger } from '../reports';

/**
 * The admin's review of held payments, through the routes, with payments held the way they really are: a
 * fake BTCPay reports partial, late, over- or mismatched money and our webhook holds the invoice.
 */
describe('admin review of held payments', () => {
  let btcpay: FakeBtcpay;
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof createUser>>;
  let adminToken: string;
  beforeAll(async () => {
    btcpay = await startFakeBtcpay();
    ctx = await createTestApp({ config: { payments: testPayments.btcpay(btcpay.url) } });
    admin = await createUser(ctx, { role: 'admin', firstName: 'Ada', lastName: 'Admin' });
    adminToken = await loginAs(ctx, admin.email);
  });
  afterAll(async () => {
    await ctx.close();
    await btcpay.close();
  });
  // Whatever a scenario decided, the ledger's invariants hold afterwards.
  afterEach(async () => {
    expect(await checkLedger(ctx.database.db)).toEqual([]);
  });

  const db = () => ctx.database.db;
  const later = (minutes = 1) => {
    ctx.clock.advance(minutes * 60_000);
    return ctx.clock.now();
  };

  const notify = (invoiceId: string, type = 'InvoiceSettled') => {
    const delivery = btcpay.delivery(invoiceId, type);
    return ctx.app.inject({ method: 'POST', url: '/api/payments/webhooks/btcpay', headers: delivery.headers, payload: delivery.body });
  };

  async function startDeposit(plan = 'gold', user?: Awaited<ReturnType<typeof createUser>>) {
    const member = user ?? (await createUser(ctx, { firstName: 'Grace', lastName: 'Hopper' }));
    const token = await loginAs(ctx, member.email);
    const response = await ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan } });
    expect(response.statusCode, response.body).toBe(201);
    const { transaction, payment_url } = response.json<{ transaction: { _id: string }; payment_url: string }>();
    const providerInvoiceId = payment_url.split('/').pop()!;
    const [invoice] = await db().select().from(paymentInvoices).where(eq(paymentInvoices.transactionId, transaction._id));
    return { user: member, token, transactionId: transaction._id, providerInvoiceId, id: invoice!.id };
  }

  /** A deposit whose payment BTCPay reports as `change`: held for review by our webhook. */
  async function held(
    change: Record<string, unknown> = { status: 'Expired', additionalStatus: 'PaidPartial' },
    plan = 'gold',
    user?: Awaited<ReturnType<typeof createUser>>,
    receivedBtc?: string,
  ) {
    const deposit = await startDeposit(plan, user);
    btcpay.set(deposit.providerInvoiceId, change);
    if (receivedBtc) btcpay.receive(deposit.providerInvoiceId, receivedBtc);
    expect((await notify(deposit.providerInvoiceId)).statusCode).toBe(200);
    const [invoice] = await db().select().from(paymentInvoices).where(eq(paymentInvoices.id, deposit.id));
    expect(invoice!.state).toBe('review');
    return deposit;
  }

  async function settledNormally(plan = 'startium', user?: Awaited<ReturnType<typeof createUser>>) {
    const deposit = await startDeposit(plan, user);
    btcpay.set(deposit.providerInvoiceId, { status: 'Settled' });
    expect((await notify(deposit.providerInvoiceId)).statusCode).toBe(200);
    return deposit;
  }

  const list = (token = adminToken) => ctx.app.inject({ method: 'GET', url: '/api/admin/payments/review', headers: bearer(token) });
  const decide = (id: string, payload: unknown, token = adminToken) =>
    ctx.app.inject({ method: 'POST', url: `/api/admin/payments/${id}/review`, headers: bearer(token), payload: payload as object });

  const invoiceRow = async (id: string) => (await db().select().from(paymentInvoices).where(eq(paymentInvoices.id, id)))[0]!;
  const depositStatus = async (transactionId: string) =>
    (await db().select().from(transactions).where(eq(transactions.id, transactionId)))[0]!.status;
  const settlementEntries = async (transactionId: string) =>
    (await rows<{ count: number }>(ctx, sql`select count(*)::int as count from journal_entries where idempotency_key = ${`deposit:${transactionId}`}`))[0]!
      .count;
  /** Every balance and every entry: what "no money moved" is measured against. */
  const ledgerSnapshot = async () => ({
    balances: await rows(ctx, sql`select id, balance_cents from ledger_accounts order by id`),
    entries: (await rows<{ count: number }>(ctx, sql`select count(*)::int as count from journal_entries`))[0]!.count,
  });
  const mailTo = async (email: string) => (await ctx.deliverMail()).filter((m) => m.to === email).map((m) => m.subject);

  it('refuses anonymous callers (401) and members (403) on both routes', async () => {
    const { id } = await held();
    const member = await createUser(ctx);
    const memberToken = await loginAs(ctx, member.email);
    for (const [method, url, payload] of [
      ['GET', '/api/admin/payments/review', undefined],
      ['POST', `/api/admin/payments/${id}/review`, { decision: 'activate' }],
    ] as const) {
      const anonymous = await ctx.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json()).toEqual({ message: messages.auth.sessionExpired, code: 'UNAUTHENTICATED' });
      const forbidden = await ctx.app.inject({ method, url, headers: bearer(memberToken), ...(payload ? { payload } : {}) });
      expect(forbidden.statusCode, url).toBe(403);
      expect(forbidden.json().code).toBe('FORBIDDEN');
    }
    expect((await invoiceRow(id)).state).toBe('review');
  });

  it('lists held payments only, newest first, with their deposit, member and the reason', async () => {
    // Decide whatever earlier tests left held, so this list is this test's own.
    for (const payment of (await list()).json<HeldPayment[]>()) expect((await decide(payment._id, { decision: 'reject' })).statusCode).toBe(200);
    expect((await list()).json()).toEqual([]);

    later();
    const partial = await held({ status: 'Expired', additionalStatus: 'PaidPartial' }, 'gold', undefined, '0.01000000');
    later();
    const over = await held({ status: 'Settled', additionalStatus: 'PaidOver' }, 'platinum', undefined, '0.09000000');
    later();
    const mismatch = await held({ status: 'Settled', amount: '1.00' }, 'ultimium');
    later();
    await settledNormally('startium');
    const pending = await startDeposit('gold');
    const expired = await startDeposit('startium');
    btcpay.set(expired.providerInvoiceId, { status: 'Expired' });
    await notify(expired.providerInvoiceId, 'InvoiceExpired');

    const response = await list();
    expect(response.statusCode).toBe(200);
    const items = response.json<HeldPayment[]>();
    expect(items.map((p) => p._id)).toEqual([mismatch.id, over.id, partial.id]);
    expect(items.map((p) => p.reviewReason)).toEqual(['mismatch', 'over', 'partial']);
    expect(items.map((p) => p._id)).not.toContain(pending.id);
    const invoice = await invoiceRow(partial.id);
    expect(items[2]).toEqual({
      _id: partial.id,
      provider: 'btcpay',
      providerInvoiceId: partial.providerInvoiceId,
      paymentId: null,
      pack: 'gold',
      amount: 2500,
      // What arrived, as BTCPay counts it, beside the 2,500 USD asked.
      paid: { amount: '0.01000000', currency: 'BTC' },
      state: 'review',
      reviewReason: 'partial',
      rawStatus: 'Expired/PaidPartial',
      createdAt: invoice.createdAt.toISOString(),
      closedAt: invoice.closedAt!.toISOString(),
      transactionId: partial.transactionId,
      transactionStatus: 'pending',
      user: { _id: partial.user.id, firstName: 'Grace', lastName: 'Hopper', email: partial.user.email },
      decision: null,
      decidedBy: null,
      decidedAt: null,
      decisionNote: null,
    });
    expect(items[1]).toMatchObject({ pack: 'platinum', amount: 5000, rawStatus: 'Settled/PaidOver', paid: { amount: '0.09000000', currency: 'BTC' } });
    // A settled amount that is not the pack's, with nothing reported received: nothing to show.
    expect(items[0]).toMatchObject({ reviewReason: 'mismatch', paid: null });
  });

  it('activates a held payment: deposit completed, pack active, member mailed, decision and audit recorded', async () => {
    const { user, id, transactionId } = await held({ status: 'Expired', additionalStatus: 'PaidPartial' }, 'gold');
    const at = later(5);
    const response = await decide(id, { decision: 'activate', note: '  Member sent the rest by bank; checked the wallet.  ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      _id: id,
      state: 'settled',
      transactionStatus: 'completed',
      decision: 'activate',
      decidedBy: admin.id,
      decidedAt: at.toISOString(),
      decisionNote: 'Member sent the rest by bank; checked the wallet.',
    });

    expect(await depositStatus(transactionId)).toBe('completed');
    expect(await settlementEntries(transactionId)).toBe(1);
    const packs = await db().select().from(memberships).where(eq(memberships.userId, user.id));
    expect(packs).toEqual([expect.objectContaining({ pack: 'gold', status: 'active', priceCents: 250_000, depositTransactionId: transactionId })]);
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(250_000);
    expect(await mailTo(user.email)).toEqual(['Your Gold pack is active | Terrafund']);

    const [audit] = await db().select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audit).toMatchObject({
      actorId: admin.id,
      action: 'payment.activated',
      targetType: 'user',
      before: { invoiceId: id, transactionId, state: 'review', reviewReason: 'partial', depositStatus: 'pending' },
      after: { invoiceId: id, transactionId, state: 'settled', depositStatus: 'completed', note: 'Member sent the rest by bank; checked the wallet.' },
    });
    // Off the list, and the member's dashboard shows the pack.
    expect((await list()).json<HeldPayment[]>().map((p) => p._id)).not.toContain(id);
    const dashboard = (await ctx.app.inject({ method: 'GET', url: '/api/users/dashboard', headers: bearer(await loginAs(ctx, user.email)) })).json();
    expect(dashboard).toMatchObject({ membership: 'gold', totalAssets: 2500 });
  });

  it('activates a late payment whose deposit expiry had already failed, replacing the active pack', async () => {
    const member = await createUser(ctx);
    await settledNormally('startium', member);
    const late = await startDeposit('platinum', member);
    btcpay.set(late.providerInvoiceId, { status: 'Expired' });
    await notify(late.providerInvoiceId, 'InvoiceExpired');
    expect(await depositStatus(late.transactionId)).toBe('failed');
    // The money arrives after all: held, the deposit stays failed.
    btcpay.set(late.providerInvoiceId, { status: 'Expired', additionalStatus: 'PaidLate' });
    await notify(late.providerInvoiceId, 'InvoicePaymentSettled');
    expect(await invoiceRow(late.id)).toMatchObject({ state: 'review', reviewReason: 'late' });
    expect(await depositStatus(late.transactionId)).toBe('failed');
    await ctx.deliverMail();

    const response = await decide(late.id, { decision: 'activate' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ state: 'settled', transactionStatus: 'completed', decisionNote: null });
    const packs = await db().select().from(memberships).where(eq(memberships.userId, member.id));
    expect(packs.map((p) => [p.pack, p.status]).sort()).toEqual([
      ['platinum', 'active'],
      ['startium', 'replaced'],
    ]);
    expect(await memberBalance(db(), member.id, 'member_pack')).toBe(500_000);
    const [mail] = (await ctx.deliverMail()).filter((m) => m.to === member.email);
    expect(mail!.subject).toBe('Your Platinum pack is active | Terrafund');
    expect(mail!.text).toContain('It replaces your Startium pack, which is no longer active.');
  });

  it('rejects a held payment: invoice and deposit failed, no money moved, member told support will contact them', async () => {
    const { user, id, transactionId, providerInvoiceId } = await held({ status: 'Settled', additionalStatus: 'PaidOver' }, 'ultimium');
    const before = await ledgerSnapshot();
    const response = await decide(id, { decision: 'reject', note: 'Refunded the whole amount in BTCPay.' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ state: 'failed', transactionStatus: 'failed', decision: 'reject', decidedBy: admin.id });

    expect(await ledgerSnapshot()).toEqual(before);
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(0);
    expect(await memberBalance(db(), user.id, 'member_wallet')).toBe(0);
    expect(await db().select().from(memberships).where(eq(memberships.userId, user.id))).toEqual([]);
    const [mail] = (await ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail!.subject).toBe('Your payment could not be accepted | Terrafund');
    expect(mail!.text).toContain('Our support team will contact you about returning the money.');
    expect(mail!.text).not.toContain('Refunded');
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audit).toMatchObject({ action: 'payment.rejected', actorId: admin.id, after: { state: 'failed', depositStatus: 'failed', note: 'Refunded the whole amount in BTCPay.' } });

    // The provider still reports the money: a rejected payment is not held again, nor the provider asked.
    const reads = () => btcpay.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/invoices/${providerInvoiceId}`)).length;
    const readsBefore = reads();
    expect(readsBefore).toBeGreaterThan(0);
    expect((await notify(providerInvoiceId)).statusCode).toBe(200);
    expect(reads()).toBe(readsBefore);
    expect(await invoiceRow(id)).toMatchObject({ state: 'failed', decision: 'reject' });
    expect(await depositStatus(transactionId)).toBe('failed');
    // And it leaves the list.
    expect((await list()).json<HeldPayment[]>().map((p) => p._id)).not.toContain(id);
  });

  it('answers 409 to a second decision and to an invoice that was never held, changing nothing', async () => {
    const activated = await held();
    expect((await decide(activated.id, { decision: 'activate' })).statusCode).toBe(200);
    const rejected = await held();
    expect((await decide(rejected.id, { decision: 'reject' })).statusCode).toBe(200);
    const settled = await settledNormally();
    const pending = await startDeposit();
    await ctx.deliverMail();

    for (const [id, decision] of [
      [activated.id, 'activate'],
      [activated.id, 'reject'],
      [rejected.id, 'activate'],
      [rejected.id, 'reject'],
      [settled.id, 'reject'],
      [pending.id, 'activate'],
    ] as const) {
      const snapshot = { ledger: await ledgerSnapshot(), invoice: await invoiceRow(id) };
      const response = await decide(id, { decision });
      expect(response.statusCode, `${decision} ${id}`).toBe(409);
      expect(response.json()).toEqual({ message: messages.payments.notInReview, code: 'CONFLICT' });
      expect({ ledger: await ledgerSnapshot(), invoice: await invoiceRow(id) }).toEqual(snapshot);
    }
    expect(await ctx.deliverMail()).toEqual([]);
    expect(await depositStatus(pending.transactionId)).toBe('pending');
  });

  it('answers 404 to unknown and malformed ids and 400 to bad bodies, never 500', async () => {
    const { id } = await held();
    for (const unknown of [randomId(), 'not-an-id', '1', `${id}x`, 'x'.repeat(150), '%00', "'; drop table payment_invoices; --"]) {
      const response = await decide(encodeURIComponent(unknown), { decision: 'activate' });
      expect(response.statusCode, unknown).toBe(404);
      expect(response.json()).toEqual({ message: messages.payments.notFound, code: 'NOT_FOUND' });
    }
    const bodies: [unknown, string][] = [
      [{}, messages.payments.decisionInvalid],
      [{ decision: 'approve' }, messages.payments.decisionInvalid],
      [{ decision: 'ACTIVATE' }, messages.payments.decisionInvalid],
      [{ decision: null }, messages.payments.decisionInvalid],
      [{ decision: ['activate'] }, messages.payments.decisionInvalid],
      [{ decision: 'reject', note: 'x'.repeat(501) }, messages.payments.noteInvalid],
      [{ decision: 'reject', note: 42 }, messages.payments.noteInvalid],
      [{ decision: 'reject', note: { text: 'hi' } }, messages.payments.noteInvalid],
    ];
    for (const [payload, message] of bodies) {
      const response = await decide(id, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ message, code: 'VALIDATION_ERROR' });
    }
    const notJson = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${id}/review`,
      headers: { ...bearer(adminToken), 'content-type': 'application/json' },
      payload: '{"decision":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('INVALID_JSON');
    expect((await invoiceRow(id)).state).toBe('review');

    // 500 characters after trimming is still a note; a blank one is none.
    const fits = await decide(id, { decision: 'reject', note: `  ${'n'.repeat(500)}  ` });
    expect(fits.statusCode, fits.body).toBe(200);
    expect(fits.json().decisionNote).toBe('n'.repeat(500));
    const other = await held();
    expect((await decide(other.id, { decision: 'reject', note: '   ' })).json().decisionNote).toBeNull();
  });

  it('lets exactly one of 10 activations racing 10 rejections through; the rest get 409 and the ledger holds', async () => {
    const { user, id, transactionId } = await held({ status: 'Settled', amount: '2499.00' }, 'gold');
    await ctx.deliverMail();
    const otherAdmins = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const other = await createUser(ctx, { role: 'admin' });
        return loginAs(ctx, other.email);
      }),
    );
    const tokens = [adminToken, ...otherAdmins];
    const attempts = Array.from({ length: 20 }, (_, i) => decide(id, { decision: i % 2 === 0 ? 'activate' : 'reject' }, tokens[i % tokens.length]));
    const responses = await Promise.all(attempts);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);

    const winner = responses.find((r) => r.statusCode === 200)!.json<HeldPayment>();
    const invoice = await invoiceRow(id);
    expect(invoice.decision).toBe(winner.decision);
    const activated = winner.decision === 'activate';
    expect(invoice.state).toBe(activated ? 'settled' : 'failed');
    expect(await depositStatus(transactionId)).toBe(activated ? 'completed' : 'failed');
    expect(await settlementEntries(transactionId)).toBe(activated ? 1 : 0);
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(activated ? 250_000 : 0);
    expect(await db().select().from(memberships).where(eq(memberships.userId, user.id))).toHaveLength(activated ? 1 : 0);
    expect(await db().select().from(auditLog).where(eq(auditLog.targetId, user.id))).toHaveLength(1);
    expect(await mailTo(user.email)).toHaveLength(1);
  });

  it('describes both routes in the OpenAPI document', async () => {
    const doc = ctx.app.swagger() as unknown as { paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>> };
    expect(doc.paths['/api/admin/payments/review']?.get?.responses).toHaveProperty('200');
    const post = doc.paths['/api/admin/payments/{id}/review']?.post;
    expect(post?.requestBody).toBeDefined();
    expect(post?.responses).toHaveProperty('409');
  });
});
