import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';
import type { LedgerProblem } from '../ledger';

/**
 * Provider invoices and what they bought, from the stored rows:
 * - one settlement per provider invoice: a deposit has at most one settlement entry (by the transaction the
 *   entry's metadata names, not only by its idempotency key); a settled invoice has exactly one, exactly one
 *   membership, and a completed deposit; a deposit that is not completed has neither entry nor membership,
 *   and a completed deposit has a settled invoice;
 * - member_pack balance equals the price of the member's active membership when a deposit bought it (0
 *   otherwise): the pack's money enters the ledger only through a settled deposit, so a membership created
 *   outside the payment flow (a test fixture, a future admin grant) carries none.
 */
export async function checkDeposits(db: Executor): Promise<LedgerProblem[]> {
  const problems: LedgerProblem[] = [];
  const rule = 'one settlement per provider invoice';
  const twice = await queryRows<{ transaction_id: string; entries: number }>(db, sql`
    select metadata->>'transactionId' as transaction_id, count(*)::int as entries
    from journal_entries where kind = 'deposit'
    group by metadata->>'transactionId' having count(*) > 1 or metadata->>'transactionId' is null`);
  for (const r of twice) {
    problems.push({ rule, detail: `deposit ${r.transaction_id ?? '(none named)'}: ${r.entries} settlement entries` });
  }
  type DepositRow = { transaction_id: string; invoice_state: string | null; status: string; entries: number; members: number };
  const deposits = await queryRows<DepositRow>(db, sql`
    select t.id as transaction_id, i.state as invoice_state, t.status,
      (select count(*)::int from journal_entries e where e.kind = 'deposit' and e.metadata->>'transactionId' = t.id::text) as entries,
      (select count(*)::int from memberships m where m.deposit_transaction_id = t.id) as members
    from transactions t left join payment_invoices i on i.transaction_id = t.id
    where t.type = 'deposit'`);
  for (const r of deposits) {
    const settled = r.invoice_state === 'settled';
    let problem: string | undefined;
    if (settled && (r.entries !== 1 || r.members !== 1 || r.status !== 'completed')) {
      problem = `settled invoice with ${r.entries} settlement entries, ${r.members} memberships, deposit ${r.status}`;
    } else if (!settled && (r.entries > 0 || r.members > 0 || r.status === 'completed')) {
      problem = `${r.status} deposit with invoice ${r.invoice_state ?? '(none)'} has ${r.entries} settlement entries and ${r.members} memberships`;
    }
    if (problem) problems.push({ rule, detail: `deposit ${r.transaction_id}: ${problem}` });
  }
  const packs = await queryRows<{ user_id: string; balance: string; price: string }>(db, sql`
    select u.user_id, coalesce(a.balance_cents, 0)::text as balance, coalesce(m.price_cents, 0)::text as price
    from (select user_id from ledger_accounts where kind = 'member_pack' union select user_id from memberships where status = 'active') u
    left join ledger_accounts a on a.user_id = u.user_id and a.kind = 'member_pack'
    left join memberships m on m.user_id = u.user_id and m.status = 'active' and m.deposit_transaction_id is not null
    where coalesce(a.balance_cents, 0) <> coalesce(m.price_cents, 0)`);
  for (const r of packs) {
    problems.push({
      rule: 'member_pack balance equals the active pack price',
      detail: `member ${r.user_id}: balance ${r.balance}, active pack ${r.price}`,
    });
  }
  return problems;
}
