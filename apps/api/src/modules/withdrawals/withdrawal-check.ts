import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';
import type { LedgerProblem } from '../ledger';

/**
 * Withdrawals, from the stored rows (issue 32): a completed one has a transaction hash, a hold of its amount, a fee
 * entry of its fee and no refund; a failed one (cancelled included) has a refund equal to its hold; a pending one
 * has its hold and no refund or fee yet.
 */
export async function checkWithdrawals(db: Executor): Promise<LedgerProblem[]> {
  const problems: LedgerProblem[] = [];
  type Row = { id: string; status: string; amount: string; tx_hash: string | null; fee: string | null; hold: string; refund: string; fee_entry: string };
  const entryAmount = (kind: string) => sql`(select coalesce(sum(p.amount_cents), 0)::text from journal_entries e
      join postings p on p.entry_id = e.id
      join ledger_accounts a on a.id = p.account_id and a.kind = 'platform_withdrawals_paid_out'
      where e.kind = ${kind} and e.metadata->>'transactionId' = t.id::text)`;
  const rows = await queryRows<Row>(db, sql`
    select t.id, t.status, t.amount_cents::text as amount, t.tx_hash, w.fee_cents::text as fee,
      ${entryAmount('withdrawal_hold')} as hold,
      ${entryAmount('withdrawal_refund')} as refund,
      ${entryAmount('withdrawal_fee')} as fee_entry
    from transactions t join withdrawals w on w.transaction_id = t.id
    where t.type = 'withdrawal'`);
  for (const r of rows) {
    const amount = Number(r.amount);
    const hold = Number(r.hold);
    const refund = -Number(r.refund);
    const fee = -Number(r.fee_entry);
    const wanted = Number(r.fee ?? 0);
    const say = (rule: string, detail: string) => problems.push({ rule, detail: `withdrawal ${r.id}: ${detail}` });
    if (hold !== amount) say('a withdrawal holds its amount', `hold ${hold}, amount ${amount}`);
    if (r.status === 'completed') {
      if (!r.tx_hash) say('a completed withdrawal has a transaction hash', 'no tx hash');
      if (refund !== 0) say('a completed withdrawal is not refunded', `refund ${refund}`);
      if (fee !== wanted) say('a completed withdrawal has its fee entry', `fee entry ${fee}, fee ${wanted}`);
    } else if (r.status === 'failed') {
      if (refund !== hold) say('a failed withdrawal is refunded its hold', `hold ${hold}, refund ${refund}`);
      if (fee !== 0) say('a failed withdrawal keeps no fee', `fee entry ${fee}`);
    } else if (refund !== 0 || fee !== 0) {
      say('a pending withdrawal has only its hold', `refund ${refund}, fee entry ${fee}`);
    }
  }
  return problems;
}
