import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { startFakeNowpayments, type FakeDelivery } from '../../../test/fake-http-server';
import { notSettled, settledOnce, useProviderDeposits } from '../../../test/provider-deposits';
import { paymentNotifications } from '../../db/schema';
import { bearer, createUser, loginAs } from '../../../test/test-app';
import { memberBalance } from '../ledger';

const publicUrl = 'https://app.terrafund.test';

/**
 * Deposits through NOWPayments, against a fake NOWPayments on 127.0.0.1: invoices, payments made under them,
 * IPNs signed over the key-sorted JSON. An IPN is only a trigger; GET /v1/payment/{id} decides.
 */
describe('deposits through NOWPayments', () => {
  const { ctx, fake: nowpayments, db, startDeposit, notify, settlementOf, expectRetrySettles } = useProviderDeposits({
    provider: 'nowpayments',
    startFake: startFakeNowpayments,
    invoiceIdOf: (url) => new URL(url).searchParams.get('iid')!,
  });
  const reads = (paymentId: number) => nowpayments.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment/${paymentId}`).length;

  it('creates an invoice for the pack price with our order id, IPN address and return pages', async () => {
    const { transactionId, invoiceId, paymentUrl } = await startDeposit('ultimium');
    const created = nowpayments.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(created.headers['x-api-key']).toBe('FAKE-NOWPAYMENTS-KEY');
    expect(JSON.parse(created.body)).toEqual({
      price_amount: 1200,
      price_currency: 'usd',
      order_id: transactionId,
      order_description: 'Ultimium pack purchase',
      ipn_callback_url: `${publicUrl}/api/payments/webhooks/nowpayments`,
      success_url: `${publicUrl}/wallet/payment/success`,
      cancel_url: `${publicUrl}/wallet/payment/timeout`,
      partially_paid_url: `${publicUrl}/api/payments/return/nowpayments?orderId=${transactionId}`,
    });
    expect(paymentUrl).toBe(`https://nowpayments.fake/payment/?iid=${invoiceId}`);
    const { invoice } = await settlementOf(transactionId);
    // NOWPayments invoices do not expire by themselves: ours does, INVOICE_EXPIRY_MINUTES after creation.
    expect(invoice.expiresAt!.getTime() - invoice.createdAt.getTime()).toBe(60 * 60_000);
  });

  it('follows a payment from waiting to finished, settling once on the confirmed status', async () => {
    const { user, transactionId, invoiceId } = await startDeposit('gold');
    const paymentId = nowpayments.pay(invoiceId);
    expect((await notify(nowpayments.ipn(paymentId))).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject({ ...notSettled, invoice: { state: 'pending', paymentId: String(paymentId), rawStatus: 'waiting' } });

    nowpayments.set(paymentId, { payment_status: 'confirming' });
    expect((await notify(nowpayments.ipn(paymentId))).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject({ ...notSettled, invoice: { rawStatus: 'confirming' } });

    nowpayments.set(paymentId, { payment_status: 'finished' });
    const finished = nowpayments.ipn(paymentId);
    // A charset on the content type is still JSON.
    expect((await notify({ body: finished.body, headers: { ...finished.headers, 'content-type': 'application/json; charset=utf-8' } })).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject({ ...settledOnce, invoice: { state: 'settled' } });
    expect(await memberBalance(db(), user.id, 'member_pack')).toBe(250_000);

    // The same IPN again, a hundred times: nothing more, and the API is not asked again.
    const before = reads(paymentId);
    for (let i = 0; i < 100; i += 1) expect((await notify(finished)).statusCode).toBe(200);
    expect(reads(paymentId)).toBe(before);
    // A late, lower status after the end: ignored.
    nowpayments.set(paymentId, { payment_status: 'confirming' });
    expect((await notify(nowpayments.ipn(paymentId))).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject({ ...settledOnce, invoice: { state: 'settled' } });
    const keys = (await db().select().from(paymentNotifications).where(eq(paymentNotifications.invoiceId, invoiceId))).map((n) => n.deliveryKey);
    expect(keys.sort()).toEqual([`${paymentId}:confirming`, `${paymentId}:finished`, `${paymentId}:waiting`]);
  });

  it('settles once when 50 copies of the finished IPN arrive together', async () => {
    const { user, transactionId, invoiceId } = await startDeposit('platinum');
    const paymentId = nowpayments.pay(invoiceId, { payment_status: 'finished' });
    const ipn = nowpayments.ipn(paymentId);
    const responses = await Promise.all(Array.from({ length: 50 }, () => notify(ipn)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(await settlementOf(transactionId)).toMatchObject(settledOnce);
    expect((await ctx.deliverMail()).filter((m) => m.to === user.email)).toHaveLength(1);
  });

  it('refuses a tampered IPN or one signed with another secret (403), changing nothing', async () => {
    const { transactionId, invoiceId } = await startDeposit('gold');
    const paymentId = nowpayments.pay(invoiceId, { payment_status: 'finished' });
    const genuine = nowpayments.ipn(paymentId);
    const payload = JSON.parse(genuine.body.toString());
    const attempts: FakeDelivery[] = [
      { body: Buffer.from(JSON.stringify({ ...payload, price_amount: 1 })), headers: genuine.headers },
      { body: Buffer.from(JSON.stringify({ ...payload, fee: { ...payload.fee, serviceFee: 1 } })), headers: genuine.headers },
      { body: genuine.body, headers: { 'content-type': 'application/json', 'x-nowpayments-sig': 'f'.repeat(128) } },
      { body: genuine.body, headers: { 'content-type': 'application/json' } },
      { body: Buffer.from('not json'), headers: genuine.headers },
    ];
    for (const attempt of attempts) expect((await notify(attempt)).statusCode).toBe(403);
    expect(reads(paymentId)).toBe(0);
    expect(await settlementOf(transactionId)).toMatchObject(notSettled);
    // Key order and spacing do not matter to this signature: it covers the parsed, key-sorted JSON.
    const reordered = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(payload).reverse()), null, 1));
    expect((await notify({ body: reordered, headers: genuine.headers })).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject(settledOnce);
  });

  it('holds partial payments and payments for another amount, currency, order or invoice for review', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ payment_status: 'partially_paid' }, 'partial'],
      [{ payment_status: 'finished', price_amount: 2000 }, 'mismatch'],
      [{ payment_status: 'finished', price_currency: 'eur' }, 'mismatch'],
      [{ payment_status: 'finished', order_id: crypto.randomUUID() }, 'mismatch'],
      [{ payment_status: 'finished', invoice_id: 1 }, 'mismatch'],
    ];
    for (const [change, reason] of cases) {
      const { user, transactionId, invoiceId } = await startDeposit('gold');
      const paymentId = nowpayments.pay(invoiceId, change);
      // The IPN names our invoice even when the payment behind it does not.
      expect((await notify(nowpayments.ipn(paymentId, { invoice_id: Number(invoiceId) }))).statusCode).toBe(200);
      expect(await settlementOf(transactionId), JSON.stringify(change)).toMatchObject({ ...notSettled, invoice: { state: 'review', reviewReason: reason } });
      expect(await memberBalance(db(), user.id, 'member_pack')).toBe(0);
    }
  });

  it('shows the member and the admin what arrived for a held payment, beside the price asked', async () => {
    const { token, transactionId, invoiceId } = await startDeposit('gold');
    const paymentId = nowpayments.pay(invoiceId, { payment_status: 'partially_paid', pay_amount: 0.0390625, actually_paid: 0.0195, pay_currency: 'btc' });
    expect((await notify(nowpayments.ipn(paymentId))).statusCode).toBe(200);
    expect(await settlementOf(transactionId)).toMatchObject({ ...notSettled, invoice: { state: 'review', paidAmount: '0.0195', paidCurrency: 'BTC' } });

    const mine = await ctx.app.inject({ method: 'GET', url: '/api/payments', headers: bearer(token) });
    expect(mine.json()[0]).toMatchObject({ transactionId, status: 'held', amount: 2500, paid: { amount: '0.0195', currency: 'BTC' } });

    const admin = await createUser(ctx, { role: 'admin', email: `admin-${crypto.randomUUID()}@example.com` });
    const review = await ctx.app.inject({ method: 'GET', url: '/api/admin/payments/review', headers: bearer(await loginAs(ctx, admin.email)) });
    expect(review.json().find((p: { transactionId: string }) => p.transactionId === transactionId)).toMatchObject({
      amount: 2500,
      paid: { amount: '0.0195', currency: 'BTC' },
      reviewReason: 'partial',
    });
  });

  it('fails the deposit on expired and failed payments', async () => {
    for (const payment_status of ['expired', 'failed', 'refunded']) {
      const { transactionId, invoiceId } = await startDeposit('startium');
      const paymentId = nowpayments.pay(invoiceId, { payment_status });
      expect((await notify(nowpayments.ipn(paymentId))).statusCode).toBe(200);
      expect(await settlementOf(transactionId)).toMatchObject({ status: 'failed', entries: 0, memberships: 0 });
      const location = (await ctx.app.inject({ method: 'GET', url: `/api/payments/return/nowpayments?orderId=${transactionId}` })).headers.location;
      expect(location).toBe(`${publicUrl}/wallet/payment/timeout`);
    }
  });

  it('answers 503 while the payment cannot be read, records nothing, and settles on the retry', async () => {
    const deposit = await startDeposit('gold');
    const paymentId = nowpayments.pay(deposit.invoiceId, { payment_status: 'finished' });
    const ipn = nowpayments.ipn(paymentId);
    nowpayments.down();
    const response = await notify(ipn);
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(messages.wallet.paymentProviderUnavailable);
    await expectRetrySettles(deposit, ipn);
  });

  it('acknowledges unknown statuses and payments that are not ours', async () => {
    const { transactionId, invoiceId } = await startDeposit('gold');
    const paymentId = nowpayments.pay(invoiceId, { payment_status: 'finished' });
    expect((await notify(nowpayments.ipn(paymentId, { payment_status: 'teleported' }))).statusCode).toBe(200);
    const stranger = nowpayments.ipn(paymentId, { invoice_id: 1, order_id: crypto.randomUUID() });
    expect((await notify(stranger)).statusCode).toBe(200);
    expect(reads(paymentId)).toBe(0);
    expect(await settlementOf(transactionId)).toMatchObject(notSettled);
  });
});
