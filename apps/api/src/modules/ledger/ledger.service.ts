import { and, eq, inArray, sql } from 'drizzle-orm';
import { messages } from '@terrafund/contracts';
import { queryRows, type Executor } from '../../db/client';
import { journalEntries, ledgerAccounts, postings } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { PG, toDomainError } from '../../lib/pg-error';

export type MemberAccountKind = 'member_wallet' | 'member_invested' | 'member_pack';
export type PlatformAccountKind =
  | 'platform_crypto_received'
  | 'platform_dividends_paid'
  | 'platform_withdrawals_paid_out'
  | 'platform_project_funding'
  /** Where the price of a pack replaced by "Switch Plan" goes: the member no longer holds it. */
  | 'platform_packs_retired'
  /** The flat withdrawal fee, once the payout completed (revenue). */
  | 'platform_withdrawal_fees';

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

/** A platform account's balance, in cents (0 before its first posting). */
export async function platformBalance(tx: Executor, kind: PlatformAccountKind): Promise<number> {
  const [row] = await tx.select({ balance: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(eq(ledgerAccounts.kind, kind)).limit(1);
  return row ? Number(row.balance) : 0;
}

export type LedgerProblem = { rule: string; detail: string };

/**
 * The ledger's own invariants, checked from the stored rows: each entry sums to zero with at least two postings,
 * each balance equals the sum of its postings, no member balance is negative. What the entries of one kind must
 * hold (deposits, payouts, withdrawals) is checked by the module that writes them; modules/reports puts the
 * whole check together (checkLedger).
 */
export async function checkBooks(db: Executor): Promise<LedgerProblem[]> {
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
