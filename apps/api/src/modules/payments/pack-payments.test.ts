import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PackPayment } from '@terrafund/contracts';
import { checkoutOf } from '../../../test/sandbox-checkout';
import { bearer, createUser, loginAs, useTestApp } from '../../../test/test-app';
import { paymentInvoices } from '../../db/schema';

/** GET /api/payments: the wallet's Deposit tab, every pack payment of the caller whatever became of it. */
describe('GET /api/payments', () => {
  const ctx = useTestApp();

  async function member() {
    const user = await createUser(ctx);
    return { user, token: await loginAs(ctx, user.email) };
  }

  async function buy(token: string, plan: string) {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan } });
    expect(response.statusCode, response.body).toBe(201);
    const { payment_url } = response.json<{ payment_url: string }>();
    ctx.clock.advance(1000); // each payment a second apart: newest first is then a fixed order
    return { payment_url, checkout: await checkoutOf(ctx.app, payment_url) };
  }

  const list = async (token: string) => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/payments', headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PackPayment[]>();
  };

  it('lists settled, expired, held and pending payments newest first; only the pending one links to its checkout', async () => {
    const { token } = await member();
    const settled = await buy(token, 'startium');
    await settled.checkout.press('pay');
    const expired = await buy(token, 'ultimium');
    await expired.checkout.press('expire');
    const held = await buy(token, 'platinum');
    // Money that does not simply pay the pack waits for an admin (what the provider's partial payment does).
    await ctx.database.db
      .update(paymentInvoices)
      .set({ state: 'review', reviewReason: 'partial', paidAmount: '0.0390625', paidCurrency: 'BTC' })
      .where(eq(paymentInvoices.invoiceId, held.checkout.invoiceId));
    const pending = await buy(token, 'gold');

    const payments = await list(token);
    expect(payments.map((p) => [p.pack, p.amount, p.status])).toEqual([
      ['gold', 2500, 'pending'],
      ['platinum', 5000, 'held'],
      ['ultimium', 1200, 'expired'],
      ['startium', 700, 'settled'],
    ]);
    // What arrived, as the provider reported it, beside the price: the held one shows the coin it came in.
    expect(payments.map((p) => p.paid)).toEqual([null, { amount: '0.0390625', currency: 'BTC' }, null, { amount: '700.00', currency: 'USD' }]);
    expect(payments[0]!.payment_url).toBe(pending.payment_url);
    for (const payment of payments.slice(1)) expect(payment.payment_url).toBeNull();
    const dates = payments.map((p) => Date.parse(p.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
  });

  it('shows a member without any active pack the payment that expired, and calls a pending one past its expiry expired', async () => {
    const { token } = await member();
    const first = await buy(token, 'gold');
    await first.checkout.press('expire');
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
    expect(profile.json().membershipLevel).toBeNull();
    expect((await list(token)).map((p) => [p.pack, p.status])).toEqual([['gold', 'expired']]);

    await buy(token, 'startium');
    expect((await list(token))[0]).toMatchObject({ pack: 'startium', status: 'pending' });
    ctx.clock.advance(24 * 60 * 60_000);
    expect((await list(token))[0]).toMatchObject({ pack: 'startium', status: 'expired', payment_url: null });
  });

  it('shows only the caller’s own payments, and nothing without a session', async () => {
    const someone = await member();
    await buy(someone.token, 'gold');
    const { token } = await member();
    expect(await list(token)).toEqual([]);

    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/payments' });
    expect(anonymous.statusCode).toBe(401);
  });
});
