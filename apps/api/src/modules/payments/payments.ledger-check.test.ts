import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkoutOf } from '../../../test/sandbox-checkout';
import { bearer, createUser, loginAs, useTestApp } from '../../../test/test-app';
import { memberships, paymentInvoices } from '../../db/schema';
import { newMembershipValues } from '../memberships';
import { runPayouts } from '../payouts';
import { fixedClock } from '../../lib/clock';
import { memberAccount, platformAccount, postEntry } from '../ledger';
import { checkLedger } from '../reports';

/** The deposit invariants of `npm run ledger:check` catch what they promise to: each planted breach is named. */
describe('ledger check of deposits and packs', () => {
  const ctx = useTestApp();

  const db = () => ctx.database.db;

  async function deposit(plan: string, pay: boolean) {
    const user = await createUser(ctx);
    const token = await loginAs(ctx, user.email);
    const response = await ctx.app.inject({ method: 'POST', url: '/api/transactions', headers: bearer(token), payload: { type: 'deposit', plan } });
    const { transaction, payment_url } = response.json<{ transaction: { _id: string }; payment_url: string }>();
    if (pay) {
      const paid = await (await checkoutOf(ctx.app, payment_url)).press('pay');
      expect(paid.statusCode).toBe(303);
    }
    return { user, transactionId: transaction._id };
  }

  /** A breach of exactly one rule, found among the problems with a detail naming `subject`. */
  async function expectBreach(rule: string, subject: string) {
    const problems = await checkLedger(db());
    expect(problems.filter((p) => p.detail.includes(subject))).toEqual([expect.objectContaining({ rule })]);
  }

  it('finds nothing wrong after real deposits, paid and unpaid', async () => {
    await deposit('gold', true);
    await deposit('startium', false);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('names a second settlement entry for one deposit', async () => {
    const { transactionId } = await deposit('gold', true);
    await db().transaction(async (tx) => {
      const received = await platformAccount(tx, 'platform_crypto_received');
      const retired = await platformAccount(tx, 'platform_packs_retired');
      await postEntry(tx, ctx.app.deps, {
        kind: 'deposit',
        idempotencyKey: `planted-second-settlement:${transactionId}`,
        description: 'planted',
        metadata: { transactionId },
        lines: [
          { accountId: received, amountCents: -250_000 },
          { accountId: retired, amountCents: 250_000 },
        ],
      });
    });
    const problems = (await checkLedger(db())).filter((p) => p.detail.includes(transactionId));
    expect(problems.map((p) => p.rule)).toEqual(['one settlement per provider invoice', 'one settlement per provider invoice']);
  });

  it('names a settled invoice whose deposit never completed, and a pack bought by an unpaid deposit', async () => {
    const unpaid = await deposit('ultimium', false);
    await db().update(paymentInvoices).set({ state: 'settled' }).where(eq(paymentInvoices.transactionId, unpaid.transactionId));
    await expectBreach('one settlement per provider invoice', unpaid.transactionId);

    const another = await deposit('startium', false);
    await db()
      .insert(memberships)
      .values({ ...newMembershipValues(another.user.id, 'startium', ctx.clock.now(), another.transactionId), status: 'ended' });
    await expectBreach('one settlement per provider invoice', another.transactionId);
  });

  it('names a member whose pack account does not hold the active pack price', async () => {
    const { user } = await deposit('platinum', true);
    await db().transaction(async (tx) => {
      const pack = await memberAccount(tx, user.id, 'member_pack');
      const received = await platformAccount(tx, 'platform_crypto_received');
      await postEntry(tx, ctx.app.deps, {
        kind: 'test',
        idempotencyKey: `planted-pack-credit:${user.id}`,
        description: 'planted',
        lines: [
          { accountId: pack, amountCents: 100 },
          { accountId: received, amountCents: -100 },
        ],
      });
    });
    await expectBreach('member_pack balance equals the active pack price', user.id);
  });

  it('names a member paid twice on one business day', async () => {
    const user = await createUser(ctx);
    await memberAccount(db(), user.id, 'member_wallet');
    const started = new Date('2026-01-01T10:00:00Z');
    // Two packs paying the same days: the old one "replaced" only after the new one started paying.
    await db()
      .insert(memberships)
      .values([
        { ...newMembershipValues(user.id, 'gold', started), status: 'replaced' as const, replacedAt: new Date('2026-01-09T00:00:00Z') },
        newMembershipValues(user.id, 'startium', started),
      ]);
    await runPayouts(db(), { clock: fixedClock('2026-01-06T12:00:00Z') });
    const problems = (await checkLedger(db())).filter((p) => p.detail.includes(user.id));
    expect(problems.map((p) => p.rule)).toEqual(Array(3).fill('one payout per member and business day'));
    expect(problems.map((p) => p.detail).sort()).toEqual(
      ['2026-01-02', '2026-01-05', '2026-01-06'].map((day) => `member ${user.id} on ${day}: 2 payouts`),
    );
  });
});
