import { randomBytes } from 'node:crypto';
import { withdrawalAsset } from '@terrafund/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sandboxPayouts } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { PayoutProvider, PayoutSnapshot } from './payout-provider';

/**
 * PAYOUT_PROVIDER=sandbox (the development default): a payout provider that sends nothing. A payout is "in flight"
 * as soon as it is created and completes `seconds` later with a random 64-hex hash (0x-prefixed on Ethereum, as a
 * transaction id is written there). Its payouts live in the database, so find() sees them after a restart, and the
 * withdrawal flow treats it exactly as it treats BTCPay and NOWPayments.
 */
export function createSandboxPayouts(options: { db: Database; clock: Clock; seconds: number }): PayoutProvider {
  type Row = typeof sandboxPayouts.$inferSelect;
  const snapshot = (row: Row): PayoutSnapshot => {
    const done = options.clock.now().getTime() >= row.completesAt.getTime();
    return {
      provider: 'sandbox',
      id: row.id,
      withdrawalId: row.withdrawalId,
      state: done ? 'Completed' : 'Sending',
      outcome: done ? 'completed' : 'in_flight',
      address: row.address,
      cryptoAmount: (row.amountCents / 100).toFixed(2),
      cryptoCurrency: 'USD',
      ...(done ? { txHash: row.txHash } : {}),
    };
  };
  const byWithdrawal = async (withdrawalId: string) =>
    (await options.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.withdrawalId, withdrawalId)))[0];

  return {
    name: 'sandbox',
    supports: () => true,
    async find(withdrawalId) {
      const row = await byWithdrawal(withdrawalId);
      return row && snapshot(row);
    },
    async create(request) {
      const now = options.clock.now();
      const hash = randomBytes(32).toString('hex');
      await options.db
        .insert(sandboxPayouts)
        .values({
          id: `sbx_${randomBytes(12).toString('hex')}`,
          withdrawalId: request.withdrawalId,
          asset: request.asset,
          address: request.address,
          amountCents: request.amountCents,
          txHash: withdrawalAsset(request.asset).addressFormat === 'ethereum' ? `0x${hash}` : hash,
          createdAt: now,
          completesAt: new Date(now.getTime() + options.seconds * 1000),
        })
        // One payout per withdrawal id, whoever creates it first.
        .onConflictDoNothing({ target: sandboxPayouts.withdrawalId });
      return snapshot((await byWithdrawal(request.withdrawalId))!);
    },
    async get(id) {
      const [row] = await options.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.id, id));
      if (!row) throw new Error(`sandbox payout ${id} does not exist`);
      return snapshot(row);
    },
    // The sandbox sends no notifications: the periodic job reads its payouts at their completion time.
    verifyNotification: () => ({ kind: 'invalid' }),
  };
}
