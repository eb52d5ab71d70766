import { and, eq, inArray, sql } from 'drizzle-orm';
import { messages } from '@terrafund/contracts';
import { queryRows, type Executor } from '../../db/client';
import { journalEntries, ledgerAccounts, postings } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';

export type MemberAccountKind = 'member_wallet' | 'member_invested' | 'member_pack';
export type PlatformAccountKind =
  | 'platform_crypto_received'
  | 'platform_dividends_paid'
  | 'platform_withdrawals_paid_out'
  | 'platform_project_funding';

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

const PG_CHECK_VIOLATION = '23514';
const pgCode = (error: unknown): string | undefined => {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
};

/**
 * Writes one balanced journal entry in the caller's transaction. The database applies each posting to its
 * account's balance and refuses a member balance below zero (raised here as "Insufficient balance"), and
 * checks at commit that the entry sums to zero. Postings are written in account-id order so that two
 * entries touching the same accounts lock them in the same order and cannot deadlock.
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

  const ordered = [...input.lines].sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
  try {
    await tx.insert(postings).values(ordered.map((line) => ({ entryId: entry.id, accountId: line.accountId, amountCents: line.amountCents, createdAt: now })));
  } catch (error) {
    if (pgCode(error) === PG_CHECK_VIOLATION) throw new AppError('VALIDATION_ERROR', messages.ledger.insufficientBalance);
    throw error;
  }
  return { entryId: entry.id, created: true };
}

/** Balances in cents of the given accounts (0 for an account never used). */
export async function balancesOf(tx: Executor, accountIds: string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, accountIds));
  return new Map(rows.map((r) => [r.id, Number(r.balance)]));
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
 * postings, each balance equals the sum of its postings, no member balance is negative. The rules about
 * payouts and provider invoices join this list with the tables that hold them.
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
