import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { startFakeBtcpay, type FakeDelivery } from '../../../test/fake-http-server';
import { notSettled, settledOnce, useProviderDeposits } from '../../../test/provider-deposits';
import { bearer, createUser, loginAs, rows } from '../../../test/test-app';
import { memberships, paymentInvoices, paymentNotifications, transactions } from '../../db/schema';
import { memberBalance } from '../ledger';

const publicUrl = 'https://app.terrafund.test';

/**
 * Deposits through BTCPay Server (Greenfield), against a fake BTCPay on 127.0.0.1 that answers and signs as
 * docs/product.md §5.4 Payment providers describes: notifications are verified on their raw bytes, confirmed with GET of the invoice, and
 * settle exactly once however they arrive.
 */
describe('deposits through BTCPay', () => {
  const { ctx, fake: btcpay, db, startDeposit, notify, settlementOf, expectRetrySettles } = useProviderDeposits({
    provider: 'btcpay',
    startFake: startFakeBtcpay,
    invoiceIdOf: (url) => url.split('/').pop()!,
  });

  const reads = (invoiceId: string) => btcpay.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/invoices/${invoiceId}`)).length;
  const returnTo = async (transactionId: string) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/payments/return/btcpay?orderId=${transactionId}` })).headers.location;

  it('creates a Greenfield invoice for the pack price, with our order id and our return address', async () => {
    const { transactionId, invoiceId, paymentUrl } = await startDeposit('platinum');
    const created = btcpay.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(JSON.parse(created.body)).toEqual({
      amount: '5000.00',
      currency: 'USD',
      metadata: { orderId: transactionId, itemDesc: 'Platinum pack purchase' },
      checkout: {
        expirationMinutes: 60,
        redirectURL: `${publicUrl}/api/payments/return/btcpay?orderId=${transactionId}`,
        redirectAutomatically: true,
      },
    });
    expect(paymentUrl).toBe(`https://btcpay.fake/i/${invoiceId}`);
    const { invoice } = await settlementOf(transactionId);
    expect(invoice).toMatchObject({ provider: 'btcpay', invoiceId, state: 'pending', amountCents: 500_000, pack: 'platinum' });
    expect(invoice.expiresAt!.getTime()).toBe((btcpay.invoices.get(invoiceId)!.expirationTime as number) * 1000);
  });

  it('fails the deposit and says so when BTCPay does not answer the invoice request', async () => {
    const user = await createUser(ctx);
    const token = await loginAs(ctx, user.email);
    btcpay.down({ status: 500, json: { message: 'boom' } });
    const response = await ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan: 'gold' } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: messages.wallet.paymentProviderUnavailable, code: 'SERVICE_UNAVAILABLE' });
    const deposits = await db().select().from(transactions).where(eq(transactions.userId, user.id));
    expect(deposits.map((d) => d.status)).toEqual(['failed']);
    expect(await db().select().from(paymentInvoices).where(eq(paymentInvoices.userId, user.id))).toEqual([]);

    // Once BTCPay answers again, the member simply tries again.
    btcpay.up();
    const retry = await ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan: 'gold' } });
    expect(retry.statusCode).toBe(201);
  });

  it('settles on a verified notification confirmed by the API: deposit completed, pack active', async () => {
    const { user, transactionId, invoiceId } = await startDeposit('gold');
    // The notification alone proves nothing: while the API says New, nothing settles.
    const early = await notify(btcpay.delivery(invoiceId, 'InvoiceSettled'));
    expect(early.statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject(notSettled);
    expect(await returnTo(transactionId)).toBe(`${publicUrl}/wallet/payment/timeout`);

    btcpay.set(invoiceId, { status: 'Settled' });
    const before = reads(invoiceId);
    const response = await notify(btcpay.delivery(invoiceId, 'InvoiceSettled'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(reads(invoiceId)).toBe(before + 1);
    expect(await settlementOf(transactionId)).toMatchObject({ ...settledOnce, invoice: { state: 'settled', rawStatus: 'Settled' } });
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(250_000);
    expect(await returnTo(transactionId)).toBe(`${publicUrl}/wallet/payment/success`);
    const mail = (await ctx.deliverMail()).filter((m) => m.to === user.email);
    expect(mail.map((m) => m.subject)).toEqual(['Your Gold pack is active | Terrafund']);
  });

  it('refuses a tampered body and a re-serialised one (403) without asking BTCPay or changing anything', async () => {
    const { transactionId, invoiceId } = await startDeposit('startium');
    btcpay.set(invoiceId, { status: 'Settled' });
    const genuine = btcpay.delivery(invoiceId, 'InvoiceSettled');

    const tampered = Buffer.from(genuine.body);
    tampered[tampered.indexOf('InvoiceSettled') + 7] = 'X'.charCodeAt(0);
    const compact = Buffer.from(JSON.stringify(JSON.parse(genuine.body.toString())));
    expect(JSON.parse(compact.toString())).toEqual(JSON.parse(genuine.body.toString()));
    const attempts: FakeDelivery[] = [
      { body: tampered, headers: genuine.headers },
      { body: compact, headers: genuine.headers },
      { body: genuine.body, headers: { 'content-type': 'application/json' } },
      { body: genuine.body, headers: { ...genuine.headers, 'btcpay-sig': btcpay.sign(Buffer.from('something else')) } },
      { body: Buffer.alloc(0), headers: genuine.headers },
    ];
    for (const attempt of attempts) {
      const response = await notify(attempt);
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('FORBIDDEN');
    }
    expect(reads(invoiceId)).toBe(0);
    expect(await db().select().from(paymentNotifications).where(eq(paymentNotifications.invoiceId, invoiceId))).toEqual([]);
    expect(await settlementOf(transactionId)).toMatchObject(notSettled);

    // The genuine bytes still settle.
    expect((await notify(genuine)).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject(settledOnce);
  });

  it('settles once when the same notification arrives 100 times in a row', async () => {
    const { user, transactionId, invoiceId } = await startDeposit('ultimium');
    btcpay.set(invoiceId, { status: 'Settled' });
    const delivery = btcpay.delivery(invoiceId, 'InvoiceSettled');
    for (let i = 0; i < 100; i += 1) expect((await notify(delivery)).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject(settledOnce);
    // Once recorded, a repeat does not even ask BTCPay again.
    expect(reads(invoiceId)).toBe(1);
    expect((await ctx.deliverMail()).filter((m) => m.to === user.email)).toHaveLength(1);
  });

  it('settles once when 50 deliveries (repeats, redeliveries, other events) arrive at the same moment', async () => {
    const { user, transactionId, invoiceId } = await startDeposit('gold');
    btcpay.set(invoiceId, { status: 'Settled' });
    const first = btcpay.delivery(invoiceId, 'InvoiceSettled');
    const original = JSON.parse(first.body.toString()).deliveryId as string;
    const deliveries = Array.from({ length: 50 }, (_, i) => {
      if (i % 3 === 0) return first;
      if (i % 3 === 1) return btcpay.delivery(invoiceId, 'InvoiceSettled', { originalDeliveryId: original, isRedelivery: true });
      return btcpay.delivery(invoiceId, 'InvoicePaymentSettled');
    });
    const responses = await Promise.all(deliveries.map(notify));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(await settlementOf(transactionId)).toMatchObject(settledOnce);
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(250_000);
    const recorded = await db().select().from(paymentNotifications).where(eq(paymentNotifications.invoiceId, invoiceId));
    // One row per delivery key: the first delivery and its redeliveries share one; each other event has its own.
    expect(recorded).toHaveLength(1 + 16);
    expect(recorded.filter((r) => r.outcome === 'settled')).toHaveLength(1);
    expect((await ctx.deliverMail()).filter((m) => m.to === user.email)).toHaveLength(1);
  });

  it('settles two packs of one member arriving at once as one switch: one active, the other retired', async () => {
    const first = await startDeposit('startium');
    const token = first.token;
    const response = await ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan: 'platinum' } });
    const second = { transactionId: response.json().transaction._id as string, invoiceId: (response.json().payment_url as string).split('/').pop()! };
    btcpay.set(first.invoiceId, { status: 'Settled' });
    btcpay.set(second.invoiceId, { status: 'Settled' });
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () => notify(btcpay.delivery(first.invoiceId, 'InvoiceSettled'))),
      ...Array.from({ length: 5 }, () => notify(btcpay.delivery(second.invoiceId, 'InvoiceSettled'))),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const packs = await db().select().from(memberships).where(eq(memberships.userId, first.user.id));
    expect(packs.map((p) => p.status).sort()).toEqual(['active', 'replaced']);
    const active = packs.find((p) => p.status === 'active')!;
    expect(await memberBalance(db(), first.user.id, 'member_pack')).toBe(active.priceCents);
    expect(await settlementOf(first.transactionId)).toMatchObject(settledOnce);
    expect(await settlementOf(second.transactionId)).toMatchObject(settledOnce);
  });

  it('takes events out of order: Processing never settles, Settled does, and a late Expired changes nothing', async () => {
    const { transactionId, invoiceId } = await startDeposit('startium');
    btcpay.set(invoiceId, { status: 'Processing' });
    expect((await notify(btcpay.delivery(invoiceId, 'InvoiceProcessing'))).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject({ ...notSettled, invoice: { state: 'pending', rawStatus: 'Processing' } });
    // Paid but unconfirmed: the member is told it worked; the pack waits for Settled.
    expect(await returnTo(transactionId)).toBe(`${publicUrl}/wallet/payment/success`);
    expect(await settlementOf(transactionId)).toMatchObject(notSettled);

    btcpay.set(invoiceId, { status: 'Settled' });
    expect((await notify(btcpay.delivery(invoiceId, 'InvoiceSettled'))).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject(settledOnce);

    btcpay.set(invoiceId, { status: 'Expired' });
    const readsBefore = reads(invoiceId);
    expect((await notify(btcpay.delivery(invoiceId, 'InvoiceExpired'))).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject({ ...settledOnce, invoice: { state: 'settled' } });
    expect(reads(invoiceId)).toBe(readsBefore);
  });

  it('fails the deposit on Expired and Invalid', async () => {
    const expired = await startDeposit('gold');
    btcpay.set(expired.invoiceId, { status: 'Expired' });
    expect((await notify(btcpay.delivery(expired.invoiceId, 'InvoiceExpired'))).statusCode).toBe(200);
    expect(await settlementOf(expired.transactionId)).toMatchObject({ status: 'failed', entries: 0, memberships: 0, invoice: { state: 'expired' } });
    expect(await returnTo(expired.transactionId)).toBe(`${publicUrl}/wallet/payment/timeout`);

    const invalid = await startDeposit('gold');
    btcpay.set(invalid.invoiceId, { status: 'Invalid' });
    expect((await notify(btcpay.delivery(invalid.invoiceId, 'InvoiceInvalid'))).statusCode).toBe(200);
    expect(await settlementOf(invalid.transactionId)).toMatchObject({ status: 'failed', invoice: { state: 'failed' } });
  });

  it('acknowledges and ignores unknown types and invoices that are not ours', async () => {
    const { transactionId, invoiceId } = await startDeposit('gold');
    btcpay.set(invoiceId, { status: 'Settled' });
    for (const type of ['InvoiceCreated', 'InvoicePaidAfterExpiration', 'InvoiceExpiredPaidPartial', 'PayoutCreated', '']) {
      const response = await notify(btcpay.delivery(invoiceId, type));
      expect(response.statusCode, type).toBe(200);
    }
    const strangers = [
      btcpay.delivery('NotOurInvoice123', 'InvoiceSettled', { metadata: { orderId: crypto.randomUUID() } }),
      btcpay.delivery('NotOurInvoice456', 'InvoiceSettled', { metadata: { orderId: 'not-a-uuid' } }),
      btcpay.delivery('NotOurInvoice789', 'InvoiceSettled', { metadata: null }),
    ];
    for (const delivery of strangers) expect((await notify(delivery)).statusCode).toBe(200);
    expect(reads(invoiceId)).toBe(0);
    expect(await settlementOf(transactionId)).toMatchObject(notSettled);
    const [count] = await rows<{ count: number }>(ctx, sql`select count(*)::int as count from payment_notifications where invoice_id like 'NotOur%' or invoice_id = ${invoiceId}`);
    expect(count!.count).toBe(0);
  });

  it('holds a settled invoice with the wrong amount, currency or order for review, and partial or late money too', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'Settled', amount: '2499.99' }, 'mismatch'],
      [{ status: 'Settled', currency: 'EUR' }, 'mismatch'],
      [{ status: 'Settled', metadata: { orderId: crypto.randomUUID() } }, 'mismatch'],
      [{ status: 'Settled', additionalStatus: 'PaidOver' }, 'over'],
      [{ status: 'Expired', additionalStatus: 'PaidPartial' }, 'partial'],
      [{ status: 'Expired', additionalStatus: 'PaidLate' }, 'late'],
    ];
    for (const [change, reason] of cases) {
      const { user, transactionId, invoiceId } = await startDeposit('gold');
      btcpay.set(invoiceId, change);
      btcpay.receive(invoiceId, '0.02000000');
      expect((await notify(btcpay.delivery(invoiceId, 'InvoiceSettled'))).statusCode).toBe(200);
      expect(await settlementOf(transactionId), reason).toMatchObject({
        ...notSettled,
        // What arrived, read from the invoice's payment methods, kept beside the price.
        invoice: { state: 'review', reviewReason: reason, amountCents: 250_000, paidAmount: '0.02000000', paidCurrency: 'BTC' },
      });
      expect(await memberBalance(db(), user.id, 'member_pack')).toBe(0);
      // Money was sent: the member sees "success" and a pending deposit, the admin decides.
      expect(await returnTo(transactionId)).toBe(`${publicUrl}/wallet/payment/success`);

      // Review is final for automation: even a correct Settled afterwards activates nothing.
      btcpay.set(invoiceId, { status: 'Settled', amount: '2500.00', currency: 'USD', additionalStatus: 'None' });
      expect((await notify(btcpay.delivery(invoiceId, 'InvoiceSettled'))).statusCode).toBe(200);
      expect(await settlementOf(transactionId)).toMatchObject({ ...notSettled, invoice: { state: 'review' } });
    }
  });

  it('answers 503 and records nothing while BTCPay cannot be asked; the redelivery settles', async () => {
    const deposit = await startDeposit('gold');
    btcpay.set(deposit.invoiceId, { status: 'Settled' });
    const delivery = btcpay.delivery(deposit.invoiceId, 'InvoiceSettled');
    for (const outage of [{ status: 503, text: 'down' }, { status: 500, json: { message: 'boom' } }, { status: 200, text: '<html>proxy</html>' }] as const) {
      btcpay.down(outage);
      const response = await notify(delivery);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: messages.wallet.paymentProviderUnavailable, code: 'SERVICE_UNAVAILABLE' });
    }
    await expectRetrySettles(deposit, delivery);
  });

  it('opens only its own webhook: the sandbox and NOWPayments addresses are 404 under BTCPay', async () => {
    const { invoiceId } = await startDeposit('gold');
    const delivery = btcpay.delivery(invoiceId, 'InvoiceSettled');
    for (const url of ['/api/payments/webhooks/sandbox', '/api/payments/webhooks/nowpayments']) {
      expect((await ctx.app.inject({ method: 'POST', url, headers: delivery.headers, payload: delivery.body })).statusCode).toBe(404);
    }
    for (const [method, url] of [
      ['GET', '/api/payments/sandbox/checkout/AAAAAAAAAAAAAAAAAAAAAA'],
      ['POST', '/api/payments/sandbox/checkout/AAAAAAAAAAAAAAAAAAAAAA/pay'],
      ['POST', '/api/payments/sandbox/checkout/AAAAAAAAAAAAAAAAAAAAAA/expire'],
    ] as const) {
      expect((await ctx.app.inject({ method, url })).statusCode, url).toBe(404);
    }
  });

  it('keeps each invoice and notification in our tables as BTCPay named them', async () => {
    const { invoiceId } = await startDeposit('gold');
    btcpay.set(invoiceId, { status: 'Settled' });
    const delivery = btcpay.delivery(invoiceId, 'InvoiceSettled');
    await notify(delivery);
    const [recorded] = await db()
      .select()
      .from(paymentNotifications)
      .where(and(eq(paymentNotifications.provider, 'btcpay'), eq(paymentNotifications.invoiceId, invoiceId)));
    expect(recorded).toMatchObject({ deliveryKey: JSON.parse(delivery.body.toString()).deliveryId, type: 'InvoiceSettled', outcome: 'settled' });
  });
});
