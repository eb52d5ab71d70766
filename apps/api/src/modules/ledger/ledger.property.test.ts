import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACK_IDS } from '@terrafund/contracts';
import { checkoutOf, type Checkout } from '../../../test/sandbox-checkout';
import { apiCaller, createTestApp, createUser, loginAs, uniqueEmail, type TestContext } from '../../../test/test-app';
import { bookAddress, txHashFor, withdrawalBody } from '../../../test/withdrawals';
import { fixedClock } from '../../lib/clock';
import { runPayouts } from '../payouts';
import { checkProjectLedger } from '../projects';
import { checkLedger } from '../reports';

/**
 * Random sequences of everything that moves money — plan purchases paid or expired through the sandbox
 * checkout (the real webhook path), duplicate payments, daily payout runs (sometimes twice), withdrawals of
 * random amounts, admin decisions (sometimes racing each other), investments — driven through the API, with
 * every ledger invariant checked after each step, and each member's wallet balance compared with what their
 * own transaction history says it must be.
 */
type Action =
  | { kind: 'deposit'; member: number; plan: (typeof PACK_IDS)[number] }
  | { kind: 'pay' | 'expire'; invoice: number; twice: boolean }
  | { kind: 'payout'; days: number; twice: boolean }
  | { kind: 'withdraw'; member: number; fraction: number }
  | { kind: 'decide'; withdrawal: number; status: 'completed' | 'failed'; race: boolean }
  | { kind: 'invest'; member: number; fraction: number };

const MEMBERS = 3;
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('deposit' as const), member: fc.nat(MEMBERS - 1), plan: fc.constantFrom(...PACK_IDS) }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constantFrom('pay' as const, 'pay' as const, 'expire' as const), invoice: fc.nat(3), twice: fc.boolean() }),
    weight: 3,
  },
  fc.record({ kind: fc.constant('payout' as const), days: fc.integer({ min: 1, max: 12 }), twice: fc.boolean() }),
  fc.record({ kind: fc.constant('withdraw' as const), member: fc.nat(MEMBERS - 1), fraction: fc.double({ min: 0.05, max: 1.3, noNaN: true }) }),
  fc.record({
    kind: fc.constant('decide' as const),
    withdrawal: fc.nat(5),
    status: fc.constantFrom('completed' as const, 'failed' as const),
    race: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('invest' as const), member: fc.nat(MEMBERS - 1), fraction: fc.double({ min: 0.05, max: 1.2, noNaN: true }) }),
);

describe('ledger invariants under random sequences of money movements', () => {
  let ctx: TestContext;
  let adminEmail: string;
  let adminToken: string | undefined;
  const clock = fixedClock('2026-03-02T12:00:00Z');

  beforeAll(async () => {
    // Runs span years of simulated time: sessions that outlive them keep the test about money, not sign-in.
    ctx = await createTestApp({ clock, config: { sessionTtl: { remembered: 20 * 365 * 86_400, default: 20 * 365 * 86_400, admin: 20 * 365 * 86_400, absolute: 20 * 365 * 86_400 } } });
    adminEmail = (await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') })).email;
  });
  afterAll(() => ctx.close());

  const call = apiCaller(() => ctx);

  type Tx = { _id: string; type: string; amount: number; status: string };
  async function walletOf(token: string) {
    const response = await call('GET', '/users/dashboard', token);
    expect(response.statusCode).toBe(200);
    return Math.round(response.json<{ walletBalance: number }>().walletBalance * 100);
  }
  /** The wallet a member's own history implies: payouts in, withdrawals (unless failed) and investments out. */
  async function walletFromHistory(token: string) {
    const response = await call('GET', '/transactions', token);
    expect(response.statusCode).toBe(200);
    let cents = 0;
    for (const t of response.json<Tx[]>()) {
      const amount = Math.round(t.amount * 100);
      if (t.type === 'payout' && t.status === 'completed') cents += amount;
      if (t.type === 'withdrawal' && t.status !== 'failed') cents -= amount;
      if (t.type === 'investment' && t.status === 'completed') cents -= amount;
    }
    return cents;
  }

  it('keeps every invariant after every step', { timeout: 600_000 }, async () => {
    // What actually happened across the runs: a property that never moved money would prove nothing.
    const seen = { settled: 0, expired: 0, paid: 0, withdrawn: 0, decided: 0, invested: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 8, maxLength: 30 }), async (actions) => {
        adminToken ??= await loginAs(ctx, adminEmail);
        const members = await Promise.all(
          Array.from({ length: MEMBERS }, async () => {
            const user = await createUser(ctx, { kycStatus: 'approved', kycVerified: true });
            await bookAddress(ctx, user.id);
            return { user, token: await loginAs(ctx, user.email) };
          }),
        );
        const project = await call('POST', '/projects', adminToken, {
          title: `Property test ${uniqueEmail('p')}`,
          description: 'A project the property test invests in.',
          location: 'Lisbon, Portugal',
          type: 'residential',
          status: 'available',
          target: 400,
          roi: 7.5,
          term: 36,
          minInvestment: 5,
          details: { propertyType: 'Apartments', size: '1,000 sq ft', units: 4, yearBuilt: 2001, occupancyRate: 90, paymentSchedule: 'monthly', features: [] },
        });
        expect(project.statusCode, project.body).toBe(201);
        const projectId = project.json<{ _id: string }>()._id;
        const invoices: Checkout[] = [];
        const withdrawals: string[] = [];

        for (const step of actions) {
          if (step.kind === 'deposit') {
            const response = await call('POST', '/transactions', members[step.member]!.token, { type: 'deposit', plan: step.plan });
            expect(response.statusCode, response.body).toBe(201);
            invoices.push(await checkoutOf(ctx.app, response.json<{ payment_url: string }>().payment_url));
          } else if (step.kind === 'pay' || step.kind === 'expire') {
            // Newest first: an invoice left open while days passed has expired, and paying it is refused.
            const invoice = invoices[invoices.length - 1 - (step.invoice % Math.max(invoices.length, 1))];
            if (!invoice) continue;
            const close = () => invoice.press(step.kind);
            const responses = step.twice ? await Promise.all([close(), close()]) : [await close()];
            for (const r of responses) expect([303, 409]).toContain(r.statusCode);
            if (responses.some((r) => r.statusCode === 303)) seen[step.kind === 'pay' ? 'settled' : 'expired'] += 1;
          } else if (step.kind === 'payout') {
            clock.advance(step.days * 86_400_000);
            const runs = step.twice ? [runPayouts(ctx.database.db, { clock }), runPayouts(ctx.database.db, { clock })] : [runPayouts(ctx.database.db, { clock })];
            const results = await Promise.all(runs);
            seen.paid += results.reduce((sum, r) => sum + r.paid, 0);
          } else if (step.kind === 'withdraw') {
            const { token } = members[step.member]!;
            const amount = Math.max(25, Math.floor(((await walletOf(token)) * step.fraction) / 100));
            const response = await call('POST', '/transactions', token, withdrawalBody(amount));
            expect([201, 400]).toContain(response.statusCode);
            if (response.statusCode === 201) {
              withdrawals.push(response.json<{ transaction: Tx }>().transaction._id);
              seen.withdrawn += 1;
            }
          } else if (step.kind === 'decide') {
            const id = withdrawals[step.withdrawal % Math.max(withdrawals.length, 1)];
            if (!id) continue;
            const decide = (status: string) => call('PATCH', `/transactions/${id}/status`, adminToken, { status, txHash: txHashFor('BTC') });
            const responses = step.race
              ? await Promise.all([decide(step.status), decide(step.status === 'completed' ? 'failed' : 'completed')])
              : [await decide(step.status)];
            for (const r of responses) expect([200, 409]).toContain(r.statusCode);
            if (step.race) expect(responses.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1);
            seen.decided += responses.filter((r) => r.statusCode === 200).length;
          } else if (step.kind === 'invest') {
            const { token } = members[step.member]!;
            const amount = Math.max(5, Math.floor(((await walletOf(token)) * step.fraction) / 100));
            const response = await call('POST', `/projects/${projectId}/invest`, token, { amount });
            expect([201, 400, 409], response.body).toContain(response.statusCode);
            if (response.statusCode === 201) seen.invested += 1;
          }

          expect(await checkLedger(ctx.database.db)).toEqual([]);
          expect(await checkProjectLedger(ctx.database.db)).toEqual([]);
          for (const { token } of members) {
            const wallet = await walletOf(token);
            expect(wallet).toBeGreaterThanOrEqual(0);
            expect(wallet).toBe(await walletFromHistory(token));
          }
        }
      }),
      {
        numRuns: 12,
        // One run that is sure to move money all the way: buy, pay, earn, withdraw, decide, invest.
        examples: [
          [
            [
              { kind: 'deposit', member: 0, plan: 'gold' },
              { kind: 'pay', invoice: 0, twice: true },
              { kind: 'payout', days: 12, twice: true },
              { kind: 'withdraw', member: 0, fraction: 0.3 },
              { kind: 'decide', withdrawal: 0, status: 'failed', race: true },
              { kind: 'invest', member: 0, fraction: 0.5 },
            ],
          ],
        ],
      },
    );
    for (const [what, count] of Object.entries(seen)) expect(count, `${what} never happened`).toBeGreaterThan(0);
  });
});
