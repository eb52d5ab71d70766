import type { Executor } from '../../db/client';
import { checkBooks, type LedgerProblem } from '../ledger';
import { checkDeposits } from '../payments';
import { checkPayoutDays, checkPayouts } from '../payouts';
import { checkWithdrawals } from '../withdrawals';

/**
 * Every invariant of the ledger, checked from the stored rows: each entry sums to zero with at least two
 * postings, each balance equals the sum of its postings, no member balance is negative (modules/ledger); one
 * payout per member and business day, each a completed transaction and a wallet credit (modules/payouts); one
 * settlement per provider invoice and member_pack equal to the active pack's price (modules/payments); each
 * withdrawal holds, refunds and charges what its status says (modules/withdrawals).
 *
 * Composed here, above the modules it asks, so that the ledger (which they all post through) imports none of
 * them (docs/decisions.md, "The module graph is linted").
 */
export async function checkLedger(db: Executor): Promise<LedgerProblem[]> {
  return [
    ...(await checkBooks(db)),
    ...(await checkPayoutDays(db)),
    ...(await checkDeposits(db)),
    ...(await checkPayouts(db)),
    ...(await checkWithdrawals(db)),
  ];
}
