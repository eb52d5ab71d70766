import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { createProject, investor } from '../../../test/project-fixtures';
import { bearer, createUser, loginAs, uniqueEmail, useAdmin, useTestApp } from '../../../test/test-app';
import { txHashFor, withdrawalBody } from '../../../test/withdrawals';
import { transactions } from '../../db/schema';
import { csvCell } from '../../lib/csv';
import { statementLines } from './statement.service';

const HEADER = 'Date,Type,Description,Amount (USD),Status,Reference';

/** Splits a statement into rows of cells (our cells never hold a line break). */
const parse = (body: string) =>
  body
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.filter((c) => c !== '').map((c) => c.replace(/,$/, '').replace(/^"([\s\S]*)"$/, '$1').replace(/""/g, '"')));

describe('statements: GET /api/transactions/export', () => {
  const ctx = useTestApp();
  const admin = useAdmin(ctx);

  const exportCsv = (token: string | undefined, query: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/transactions/export${query}`, headers: token ? bearer(token) : {} });

  /** Inserts a transaction of `userId` directly, at `at`. */
  async function insert(userId: string, at: string, values: Partial<typeof transactions.$inferInsert> = {}) {
    const [row] = await ctx.database.db
      .insert(transactions)
      .values({ userId, type: 'payout', amountCents: 500, status: 'completed', description: 'Daily dividend', createdAt: new Date(at), updatedAt: new Date(at), ...values })
      .returning();
    return row!;
  }

  it('answers 401 without a session', async () => {
    expect((await exportCsv(undefined, '?from=2026-01-01&to=2026-01-31')).statusCode).toBe(401);
  });

  it('streams an attachment with the exact header and one signed row per transaction of the caller in the range, days included', async () => {
    const { user, token } = await investor(ctx, 0);
    const other = await createUser(ctx);
    await insert(user.id, '2026-02-28T23:59:59.999Z', { description: 'before the range' });
    const first = await insert(user.id, '2026-03-01T00:00:00.000Z', { type: 'payout', amountCents: 500 });
    const out = await insert(user.id, '2026-03-10T08:00:00.000Z', {
      type: 'withdrawal', amountCents: 2_500, status: 'completed', walletAddress: 'bc1qx', txHash: '0xfeed', description: 'Withdrawal of 25.00 to bc1qx',
    });
    const failed = await insert(user.id, '2026-03-12T08:00:00.000Z', { type: 'withdrawal', amountCents: 4_050, status: 'failed', description: 'Withdrawal of 40.50 to bc1qy' });
    const last = await insert(user.id, '2026-03-31T23:59:59.999Z', { type: 'deposit', amountCents: 70_000, status: 'completed', plan: 'startium', description: 'Startium pack purchase' });
    await insert(user.id, '2026-04-01T00:00:00.000Z', { description: 'after the range' });
    await insert(other.id, '2026-03-15T00:00:00.000Z', { description: 'another member' });

    const response = await exportCsv(token, '?from=2026-03-01&to=2026-03-31');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="terrafund-statement-2026-03-01-to-2026-03-31.csv"');
    // Streamed: no length known in advance, sent in chunks.
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.body.split('\r\n')[0]).toBe(HEADER);

    const rows = parse(response.body).slice(1);
    expect(rows).toEqual([
      ['2026-03-01T00:00:00.000Z', 'payout', 'Daily dividend', '5.00', 'completed', first.id],
      ['2026-03-10T08:00:00.000Z', 'withdrawal', 'Withdrawal of 25.00 to bc1qx (transaction hash 0xfeed)', '-25.00', 'completed', out.id],
      ['2026-03-12T08:00:00.000Z', 'withdrawal', 'Withdrawal of 40.50 to bc1qy', '-40.50', 'failed', failed.id],
      ['2026-03-31T23:59:59.999Z', 'deposit', 'Startium pack purchase', '700.00', 'completed', last.id],
    ]);
  });

  it('shows an investment as money out, and a single day as a range of one', async () => {
    const project = await createProject(ctx, admin.token, { title: 'Dock Street' });
    const { token } = await investor(ctx, 500_000);
    expect((await ctx.app.inject({ method: 'POST', url: `/api/projects/${project._id}/invest`, headers: bearer(token), payload: { amount: project.minInvestment } })).statusCode).toBe(201);
    const day = ctx.clock.now().toISOString().slice(0, 10);
    const rows = parse((await exportCsv(token, `?from=${day}&to=${day}`)).body);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.slice(1, 5)).toEqual(['investment', 'Investment in Dock Street', `-${project.minInvestment.toFixed(2)}`, 'completed']);
  });

  it('answers only the header for an empty range', async () => {
    const { token } = await investor(ctx, 0);
    expect((await exportCsv(token, '?from=2001-01-01&to=2001-12-31')).body).toBe(`${HEADER}\r\n`);
  });

  it('neutralises cells a spreadsheet would run as formulas, but not a plain negative amount', async () => {
    const { user, token } = await investor(ctx, 0);
    for (const [i, text] of ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR'].entries()) {
      await insert(user.id, `2026-05-0${i + 1}T10:00:00.000Z`, { description: text });
    }
    const response = await exportCsv(token, '?from=2026-05-01&to=2026-05-31');
    const rows = parse(response.body).slice(1);
    expect(rows.map((r) => r[2])).toEqual([`'=HYPERLINK("http://evil.example","x")`, "'+1+1", "'-2+3", "'@SUM(A1)", "'\tTAB", "'\rCR"]);
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell('-25.00', { numeric: true })).toBe('-25.00');
    expect(csvCell('-25.00')).toBe("'-25.00");
    expect(csvCell('-1+1', { numeric: true })).toBe("'-1+1");
    expect(csvCell('a,b')).toBe('"a,b"');
  });

  it('refuses bad dates and a start after the end with 400', async () => {
    const { token } = await investor(ctx, 0);
    for (const query of ['', '?from=2026-01-01', '?to=2026-01-01', '?from=2026-02-30&to=2026-03-01', '?from=01/01/2026&to=2026-03-01', '?from=2026-01-01&to=2026-1-5', '?from=2026-03-02&to=2026-03-01']) {
      const response = await exportCsv(token, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.headers['content-type']).toMatch(/json/);
    }
    expect((await exportCsv(token, '?from=2026-03-02&to=2026-03-01')).json().message).toBe(messages.statements.rangeInvalid);
  });

  it('reads the range in batches, every row exactly once', async () => {
    const { user } = await investor(ctx, 0);
    for (let i = 0; i < 7; i += 1) await insert(user.id, '2026-06-01T10:00:00.000Z', { amountCents: 100 + i });
    let chunks = 0;
    const lines: string[] = [];
    for await (const chunk of statementLines(ctx.app.deps, user.id, { from: '2026-06-01', to: '2026-06-01' }, 3)) {
      chunks += 1;
      lines.push(...chunk.split('\r\n').filter(Boolean));
    }
    expect(chunks).toBe(1 + 3); // the header, then batches of 3, 3 and 1
    expect(lines.slice(1).map((l) => l.split(',')[3]).sort()).toEqual(['1.00', '1.01', '1.02', '1.03', '1.04', '1.05', '1.06']);
  });
});

describe('following a withdrawal: GET /api/transactions/:id', () => {
  const ctx = useTestApp();
  let adminEmail: string;
  beforeAll(async () => {
    adminEmail = (await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') })).email;
  });

  const get = (token: string, id: string) => ctx.app.inject({ method: 'GET', url: `/api/transactions/${id}`, headers: bearer(token) });
  const request = async (token: string) => {
    const response = await ctx.app.inject({
      method: 'POST', url: '/api/transactions', headers: bearer(token), payload: withdrawalBody(30),
    });
    return response.json().transaction._id as string;
  };
  // A fresh admin session each time: the tests move the clock past an admin's idle limit.
  const decide = async (id: string, body: object) =>
    ctx.app.inject({ method: 'PATCH', url: `/api/transactions/${id}/status`, headers: bearer(await loginAs(ctx, adminEmail)), payload: body });

  it('carries requested, then completed with the hash, and the hash on the transaction', async () => {
    const { token } = await investor(ctx, 10_000);
    const requestedAt = ctx.clock.now().toISOString();
    const id = await request(token);
    let detail = (await get(token, id)).json();
    expect(detail.timeline).toEqual([{ status: 'requested', at: requestedAt }]);
    expect(detail.txHash).toBeNull();

    ctx.clock.advance(3_600_000);
    const completedAt = ctx.clock.now().toISOString();
    const hash = txHashFor('BTC', '4');
    expect((await decide(id, { status: 'completed', txHash: hash })).statusCode).toBe(200);
    detail = (await get(token, id)).json();
    expect(detail).toMatchObject({ _id: id, type: 'withdrawal', status: 'completed', txHash: hash });
    expect(detail.timeline).toEqual([
      { status: 'requested', at: requestedAt },
      { status: 'approved', at: completedAt },
      { status: 'completed', at: completedAt, txHash: hash },
    ]);
  });

  it('carries requested, then failed', async () => {
    const { token } = await investor(ctx, 10_000);
    const id = await request(token);
    ctx.clock.advance(60_000);
    expect((await decide(id, { status: 'failed' })).statusCode).toBe(200);
    const detail = (await get(token, id)).json();
    expect(detail.timeline.map((s: { status: string }) => s.status)).toEqual(['requested', 'failed']);
    expect(detail.timeline[1].txHash).toBeUndefined();
    expect(detail.timeline[1].reason).toBe('Refused by an administrator');
  });

  it('answers 404 for another member\'s transaction, and has no timeline on other types', async () => {
    const { token } = await investor(ctx, 600_000);
    const id = await request(token);
    const other = await investor(ctx, 0);
    expect((await get(other.token, id)).statusCode).toBe(404);
    const project = await createProject(ctx, await loginAs(ctx, adminEmail));
    const invested = await ctx.app.inject({ method: 'POST', url: `/api/projects/${project._id}/invest`, headers: bearer(token), payload: { amount: project.minInvestment } });
    expect(invested.statusCode, invested.body).toBe(201);
    const detail = (await get(token, invested.json().transaction._id)).json();
    expect(detail.type).toBe('investment');
    expect(detail.timeline).toBeUndefined();
  });
});
