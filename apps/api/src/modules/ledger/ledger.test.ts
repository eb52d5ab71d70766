import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { creditWallet } from '../../../test/project-fixtures';
import { createUser, useTestApp } from '../../../test/test-app';
import { queryRows, type Executor } from '../../db/client';
import { checkLedger } from '../reports';
import { memberAccount, memberBalance, platformAccount, postEntry } from './ledger.service';

describe('ledger', () => {
  const ctx = useTestApp();

  const db = () => ctx.database.db;
  const deps = () => ({ clock: ctx.clock });

  /** Credits a member's wallet from the dividends account: a payout, as the money module will post it. */
  const credit = (userId: string, cents: number, key: string) => creditWallet(ctx, userId, cents, key);

  /** Takes from a member's wallet toward withdrawals paid out. */
  async function debit(userId: string, cents: number, key: string) {
    return db().transaction(async (tx) => {
      const wallet = await memberAccount(tx, userId, 'member_wallet');
      const sink = await platformAccount(tx, 'platform_withdrawals_paid_out');
      return postEntry(tx, deps(), {
        kind: 'withdrawal',
        idempotencyKey: key,
        description: 'test debit',
        lines: [
          { accountId: wallet, amountCents: -cents },
          { accountId: sink, amountCents: cents },
        ],
      });
    });
  }

  it('moves money in balanced entries and keeps every invariant', async () => {
    const user = await createUser(ctx);
    await credit(user.id, 1_000, `credit-${user.id}`);
    await debit(user.id, 250, `debit-${user.id}`);
    expect(await memberBalance(db(), user.id, 'member_wallet')).toBe(750);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('refuses an entry that does not sum to zero, in code and in the database', async () => {
    const user = await createUser(ctx);
    await expect(
      db().transaction(async (tx) => {
        const wallet = await memberAccount(tx, user.id, 'member_wallet');
        const source = await platformAccount(tx, 'platform_dividends_paid');
        return postEntry(tx, deps(), {
          kind: 'bad',
          idempotencyKey: `bad-${user.id}`,
          description: 'unbalanced',
          lines: [
            { accountId: wallet, amountCents: 100 },
            { accountId: source, amountCents: -99 },
          ],
        });
      }),
    ).rejects.toThrow(/sum to zero/);

    // Bypassing the service: the ledger's statement trigger refuses the insert (and so the transaction).
    await expect(
      db().transaction(async (tx) => {
        const wallet = await memberAccount(tx, user.id, 'member_wallet');
        const [entry] = await queryRows<{ id: string }>(
          tx,
          sql`insert into journal_entries (kind, idempotency_key, description, created_at) values ('raw', ${`raw-${user.id}`}, 'raw', now()) returning id`,
        );
        await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, created_at) values (${entry!.id}, ${wallet}, 500, now())`);
      }),
    ).rejects.toThrow();
    expect(await memberBalance(db(), user.id, 'member_wallet')).toBe(0);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('checks every entry of a statement on its own, and applies each account the sum of its postings', async () => {
    const [a, b] = [await createUser(ctx), await createUser(ctx)];
    const walletA = await memberAccount(db(), a.id, 'member_wallet');
    const walletB = await memberAccount(db(), b.id, 'member_wallet');
    const source = await platformAccount(db(), 'platform_dividends_paid');
    const newEntry = async (tx: Executor, key: string) =>
      (await queryRows<{ id: string }>(tx, sql`insert into journal_entries (kind, idempotency_key, description, created_at) values ('raw', ${key}, 'raw', now()) returning id`))[0]!.id;

    // Two entries in one INSERT, each off by 100 in opposite directions: the statement sums to zero, the
    // entries do not, and the database refuses it.
    await expect(
      db().transaction(async (tx) => {
        const [one, two] = [await newEntry(tx, `pair-1-${a.id}`), await newEntry(tx, `pair-2-${a.id}`)];
        await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, created_at) values
          (${one}, ${walletA}, 200, now()), (${one}, ${source}, -100, now()),
          (${two}, ${walletB}, 100, now()), (${two}, ${source}, -200, now())`);
      }),
    ).rejects.toThrow();

    // Balanced entries in one INSERT, one account posted twice: it moves by the sum.
    await db().transaction(async (tx) => {
      const [one, two] = [await newEntry(tx, `ok-1-${a.id}`), await newEntry(tx, `ok-2-${a.id}`)];
      await tx.execute(sql`insert into postings (entry_id, account_id, amount_cents, created_at) values
        (${one}, ${walletA}, 200, now()), (${one}, ${source}, -200, now()),
        (${two}, ${walletA}, 50, now()), (${two}, ${walletB}, 100, now()), (${two}, ${source}, -150, now())`);
    });
    expect(await memberBalance(db(), a.id, 'member_wallet')).toBe(250);
    expect(await memberBalance(db(), b.id, 'member_wallet')).toBe(100);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('never lets a member balance go below zero, and says so in the spec words', async () => {
    const user = await createUser(ctx);
    await credit(user.id, 500, `seed-${user.id}`);
    await expect(debit(user.id, 501, `over-${user.id}`)).rejects.toMatchObject({
      message: messages.ledger.insufficientBalance,
      status: 400,
    });
    expect(await memberBalance(db(), user.id, 'member_wallet')).toBe(500);
  });

  it('moves money once for one idempotency key, even when 50 arrive at once', async () => {
    const user = await createUser(ctx);
    const results = await Promise.all(Array.from({ length: 50 }, () => credit(user.id, 300, `same-${user.id}`)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(await memberBalance(db(), user.id, 'member_wallet')).toBe(300);
  });

  it('lets exactly one of 50 simultaneous debits of the whole balance through', async () => {
    const user = await createUser(ctx);
    await credit(user.id, 10_000, `fund-${user.id}`);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => debit(user.id, 10_000, `drain-${user.id}-${i}`)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toMatchObject({ message: messages.ledger.insufficientBalance });
    }
    expect(await memberBalance(db(), user.id, 'member_wallet')).toBe(0);
    expect(await checkLedger(db())).toEqual([]);
  });

  it('keeps history append-only', async () => {
    const user = await createUser(ctx);
    const { entryId } = await credit(user.id, 100, `history-${user.id}`);
    await expect(db().execute(sql`update postings set amount_cents = 1 where entry_id = ${entryId}`)).rejects.toThrow();
    await expect(db().execute(sql`delete from postings where entry_id = ${entryId}`)).rejects.toThrow();
    await expect(db().execute(sql`delete from journal_entries where id = ${entryId}`)).rejects.toThrow();
  });

  it('ledger check reports a balance that drifted from its postings', async () => {
    const user = await createUser(ctx);
    await credit(user.id, 100, `drift-${user.id}`);
    const wallet = await memberAccount(db(), user.id, 'member_wallet');
    await db().execute(sql`update ledger_accounts set balance_cents = balance_cents + 1 where id = ${wallet}`);
    const problems = await checkLedger(db());
    expect(problems).toEqual([expect.objectContaining({ rule: 'balance equals its postings' })]);
    await db().execute(sql`update ledger_accounts set balance_cents = balance_cents - 1 where id = ${wallet}`);
    expect(await checkLedger(db())).toEqual([]);
  });
});
