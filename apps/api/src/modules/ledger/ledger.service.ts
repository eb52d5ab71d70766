import { and, eq, inArray, sql } from 'drizzle-orm';
import { messages } from '@terrafund/contracts';
import { queryRows, type Executor } from '../../db/client';
import { journalEntries, ledgerAccounts, postings } from '../../db/schema';
import type { Deps } from '../../deps';
import { checkPayouts } from '../payouts';
import { AppError } from '../../lib/app-error';
import { PG, toDomainError } from '../../lib/pg-error';

export type MemberAccountKind = 'member_wallet' | 'member_invested' | 'member_pack';
export type PlatformAccountKind =
  | 'platform_crypto_received'
  | 'platform_dividends_paid'
  | 'platform_withdrawals_paid_out'
  | 'platform_project_funding'
  /** Where the price of a pack replaced by "Switch Plan" goes: the member no longer holds it. */
  | 'platform_packs_retired';

export const memberAccountCode = (userId: string, kind: MemberAccountKind) => `member:${userId}:${kind.replace('member_', '')}`;
export const platformAccountCode = (kind: PlatformAccountKind) => `platform:${kind.replace('platform_', '')}`;

/** The id of a member's account, created on first use (concurrent first uses agree on one row). */
export async function memberAccount(tx: Executor, userId: string, kind: MemberAccountKind): Promise<string> {
  const code = memberAccountCode(userId, kind);
  await tx.insert(ledgerAccounts).values({ code, userId, kind }).onConflictDoNothing({ target: ledgerAccounts.code });
  const [row] = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.code, code));
  return row!.id;
}

export async function platformAccount(tx: Executor, kind: PlatformAccountKind): Promise<string> {
  const [row] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.code, platformAccountCode(kind)));
  if (!row) throw new Error(`platform account ${kind} is missing: migrations not applied?`);
  return row.id;
}

export type PostingLine = { accountId: string; amountCents: number };
export type EntryInput = {
  kind: string;
  /** The same key twice moves money once: the second call finds the first entry and posts nothing. */
  idempotencyKey: string;
  description: string;
  metadata?: Record<string, unknown>;
  lines: PostingLine[];
};

/** A posting would take a member's balance below zero (the CHECK ledger_accounts_non_negative refused it). */
export class InsufficientBalanceError extends AppError {
  constructor() {
    super('VALIDATION_ERROR', messages.ledger.insufficientBalance);
  }
}

/**
 * Writes one balanced journal entry in the caller's transaction, all its postings in one INSERT. The database
 * refuses the statement unless the entry sums to zero, locks the accounts in id order (so two entries touching
 * the same accounts cannot deadlock), applies each posting to its account's balance and refuses a member
 * balance below zero (raised here as "Insufficient balance"): migration 0008.
 */
export async function postEntry(tx: Executor, deps: Pick<Deps, 'clock'>, input: EntryInput): Promise<{ entryId: string; created: boolean }> {
  if (input.lines.length < 2) throw new Error('a journal entry needs at least two postings');
  for (const line of input.lines) {
    if (!Number.isSafeInteger(line.amountCents) || line.amountCents === 0) {
      throw new Error(`posting amounts are non-zero integer cents, got ${line.amountCents}`);
    }
  }
  if (input.lines.reduce((sum, line) => sum + line.amountCents, 0) !== 0) {
    throw new Error('a journal entry must sum to zero');
  }

  const now = deps.clock.now();
  const [entry] = await tx
    .insert(journalEntries)
    .values({
      kind: input.kind,
      idempotencyKey: input.idempotencyKey,
      description: input.description,
      metadata: input.metadata ?? null,
      createdAt: now,
    })
    .onConflictDoNothing({ target: journalEntries.idempotencyKey })
    .returning({ id: journalEntries.id });
  if (!entry) {
    const [existing] = await tx
      .select({ id: journalEntries.id })
      .from(journalEntries)
      .where(eq(journalEntries.idempotencyKey, input.idempotencyKey));
    return { entryId: existing!.id, created: false };
  }

  try {
    await tx.insert(postings).values(input.lines.map((line) => ({ entryId: entry.id, accountId: line.accountId, amountCents: line.amountCents, createdAt: now })));
  } catch (error) {
    throw toDomainError(error, [{ code: PG.checkViolation, constraints: ['ledger_accounts_non_negative'], error: () => new InsufficientBalanceError() }]);
  }
  return { entryId: entry.id, created: true };
}

/** A member's balance of one kind, in cents. */
export async function memberBalance(tx: Executor, userId: string, kind: MemberAccountKind): Promise<number> {
  const [row] = await tx
    .select({ balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.code, memberAccountCode(userId, kind))));
  return row ? Number(row.balance) : 0;
}

export type LedgerProblem = { rule: string; detail: string };

/**
 * Every invariant of the ledger, checked from the stored rows: each entry sums to zero with at least two
 * postings, each balance equals the sum of its postings, no member balance is negative; deposits settle once
 * (checkDeposits), member_pack holds exactly the active pack's price, and payouts are paid once per membership
 * and business day to one pack per member (checkPayouts, with the job that writes them).
 */
export async function checkLedger(db: Executor): Promise<LedgerProblem[]> {
  const problems: LedgerProblem[] = [];
  const unbalanced = await queryRows<{ entry_id: string; total: string; lines: string }>(db, sql`
    select e.id as entry_id, coalesce(sum(p.amount_cents), 0)::text as total, count(p.id)::text as lines
    from journal_entries e left join postings p on p.entry_id = e.id
    group by e.id having coalesce(sum(p.amount_cents), 0) <> 0 or count(p.id) < 2`);
  for (const r of unbalanced) {
    problems.push({ rule: 'entry sums to zero', detail: `entry ${r.entry_id}: sum ${r.total} over ${r.lines} postings` });
  }
  const drifted = await queryRows<{ code: string; balance: string; total: string }>(db, sql`
    select a.code, a.balance_cents::text as balance, coalesce(sum(p.amount_cents), 0)::text as total
    from ledger_accounts a left join postings p on p.account_id = a.id
    group by a.id having a.balance_cents <> coalesce(sum(p.amount_cents), 0)`);
  for (const r of drifted) {
    problems.push({ rule: 'balance equals its postings', detail: `${r.code}: balance ${r.balance}, postings ${r.total}` });
  }
  const negative = await queryRows<{ code: string; balance: string }>(db, sql`
    select code, balance_cents::text as balance from ledger_accounts where user_id is not null and balance_cents < 0`);
  for (const r of negative) {
    problems.push({ rule: 'no negative member balance', detail: `${r.code}: ${r.balance}` });
  }
  const paidTwice = await queryRows<{ user_id: string; business_day: string; payouts: number }>(db, sql`
    select m.user_id, p.business_day::text as business_day, count(*)::int as payouts
    from dividend_payouts p join memberships m on m.id = p.membership_id
    group by m.user_id, p.business_day having count(*) > 1`);
  for (const r of paidTwice) {
    problems.push({ rule: 'one payout per member and business day', detail: `member ${r.user_id} on ${r.business_day}: ${r.payouts} payouts` });
  }
  problems.push(...(await checkDeposits(db)), ...(await checkPayouts(db)));
  return problems;
}

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
async function checkDeposits(db: Executor): Promise<LedgerProblem[]> {
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

/** Wallet balances in cents of several members, by user id (absent: never credited). */
export async function walletBalancesOf(tx: Executor, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx
    .select({ userId: ledgerAccounts.userId, balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(and(inArray(ledgerAccounts.userId, userIds), eq(ledgerAccounts.kind, 'member_wallet')));
  return new Map(rows.map((r) => [r.userId!, Number(r.balance)]));
}
