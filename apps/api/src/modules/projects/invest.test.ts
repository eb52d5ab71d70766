import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages, type CreateProjectBody, type InvestResponse, type Project } from '@terrafund/contracts';
import { createProject, creditWallet, investor } from '../../../test/project-fixtures';
import { bearer, createMemberAndAdmin, createUser, loginAs, rows, useTestApp } from '../../../test/test-app';
import { memberBalance } from '../ledger';
import { checkLedger } from '../reports';
import { checkProjectLedger } from './invest.service';

const m = messages.projects;

describe('investing in a project', () => {
  const ctx = useTestApp();
  let adminToken: string;
  beforeAll(async () => {
    ({ adminToken } = await createMemberAndAdmin(ctx));
  });

  const invest = (token: string, projectId: string, amount: unknown) =>
    ctx.app.inject({ method: 'POST', url: `/api/projects/${projectId}/invest`, headers: bearer(token), payload: { amount } });
  const project = (overrides: Partial<CreateProjectBody> = {}) =>
    createProject(ctx, adminToken, { target: 100_000, minInvestment: 5_000, ...overrides });
  const fundedOf = async (id: string) => (await rows<{ funded: string }>(ctx, sql`select funded_cents::text as funded from projects where id = ${id}`))[0]!.funded;
  const expectBooksBalanced = async () => {
    expect(await checkLedger(ctx.database.db)).toEqual([]);
    expect(await checkProjectLedger(ctx.database.db)).toEqual([]);
  };

  it('moves the money: wallet down, invested and funded up, one completed transaction the member sees', async () => {
    const target = await project({ title: 'Lakeside Villas' });
    const { user, token } = await investor(ctx, 20_000_00);
    const response = await invest(token, target._id, 5_000);
    expect(response.statusCode).toBe(201);
    const { transaction, project: after } = response.json<InvestResponse>();
    expect(transaction).toMatchObject({ type: 'investment', amount: 5_000, status: 'completed', userId: user.id, description: 'Investment in Lakeside Villas' });
    expect(after).toMatchObject({ _id: target._id, funded: 5_000, target: 100_000 });
    // The member sees the project's owner by name only.
    expect(after.owner).toEqual({ _id: target.owner._id, firstName: target.owner.firstName, lastName: target.owner.lastName });
    expect(response.body).not.toContain(target.owner.email!);

    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(15_000_00);
    expect(await memberBalance(ctx.database.db, user.id, 'member_invested')).toBe(5_000_00);
    expect(await fundedOf(target._id)).toBe('500000');
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/transactions', headers: bearer(token) });
    expect(listed.json().map((t: { _id: string }) => t._id)).toEqual([transaction._id]);
    const [entry] = await rows<{ key: string }>(ctx, sql`
      select e.idempotency_key as key from journal_entries e join transactions t on t.entry_id = e.id where t.id = ${transaction._id}`);
    expect(entry!.key).toBe(`investment:${transaction._id}`);
    // Total assets keep the invested amount: wallet 15,000 + invested 5,000.
    const dashboard = await ctx.app.inject({ method: 'GET', url: '/api/users/dashboard', headers: bearer(token) });
    expect(dashboard.json()).toMatchObject({ totalAssets: 20_000, walletBalance: 15_000 });
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
    expect(profile.json().balance).toBe(15_000);
    await expectBooksBalanced();
  });

  it('answers each rule with its message and moves nothing', async () => {
    const open = await project({ target: 60_000, minInvestment: 5_000.5 });
    const { user, token } = await investor(ctx, 40_000_00);
    const cases: [amount: unknown, status: number, message: string][] = [
      [0, 400, m.amountInvalid],
      [-5_000, 400, m.amountInvalid],
      ['5000', 400, m.amountInvalid],
      [5_000.001, 400, m.amountInvalid],
      [null, 400, m.amountInvalid],
      [5_000.49, 400, m.minInvestment('$5,000.50')],
      [60_000.01, 400, m.exceedsRemaining('$60,000')],
      [40_000.01, 400, m.insufficientBalance],
    ];
    for (const [amount, status, message] of cases) {
      const response = await invest(token, open._id, amount);
      expect(response.statusCode, String(amount)).toBe(status);
      expect(response.json().message, String(amount)).toBe(message);
      expect(response.json().fields, String(amount)).toEqual({ amount: message });
    }
    const missing = await ctx.app.inject({ method: 'POST', url: `/api/projects/${open._id}/invest`, headers: bearer(token), payload: {} });
    expect(missing.statusCode).toBe(400);

    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(40_000_00);
    expect(await fundedOf(open._id)).toBe('0');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/transactions', headers: bearer(token) })).json()).toEqual([]);
  });

  it('needs approved KYC and a session', async () => {
    const open = await project();
    for (const kycStatus of ['not_started', 'pending', 'rejected'] as const) {
      const user = await createUser(ctx, { kycStatus });
      await creditWallet(ctx, user.id, 10_000_00);
      const response = await invest(await loginAs(ctx, user.email), open._id, 5_000);
      expect(response.statusCode, kycStatus).toBe(403);
      expect(response.json().message).toBe(m.kycRequired);
    }
    const anonymous = await ctx.app.inject({ method: 'POST', url: `/api/projects/${open._id}/invest`, payload: { amount: 5_000 } });
    expect(anonymous.statusCode).toBe(401);
    expect(await fundedOf(open._id)).toBe('0');
  });

  it('takes investments only in available projects', async () => {
    const { token } = await investor(ctx, 10_000_00);
    for (const status of ['sold', 'reserved'] as const) {
      const closed = await project({ status });
      const response = await invest(token, closed._id, 5_000);
      expect(response.statusCode, status).toBe(409);
      expect(response.json().message).toBe(m.notAvailable);
    }
  });

  it('lets the last slice be smaller than the minimum, then says the project is fully funded', async () => {
    const small = await project({ target: 12_000, minInvestment: 5_000 });
    const { user, token } = await investor(ctx, 20_000_00);
    expect((await invest(token, small._id, 5_000)).statusCode).toBe(201);
    expect((await invest(token, small._id, 5_000)).statusCode).toBe(201);
    const below = await invest(token, small._id, 1_999.99);
    expect(below.json().message).toBe(m.minInvestment('$2,000'));
    const above = await invest(token, small._id, 2_000.01);
    expect(above.json().message).toBe(m.exceedsRemaining('$2,000'));
    const last = await invest(token, small._id, 2_000);
    expect(last.statusCode).toBe(201);
    expect(last.json<InvestResponse>().project.funded).toBe(12_000);
    const full = await invest(token, small._id, 5_000);
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(m.fullyFunded);
    expect(await memberBalance(ctx.database.db, user.id, 'member_invested')).toBe(12_000_00);
    await expectBooksBalanced();
  });

  it('never takes more than the target, whatever arrives at once (30 investments, 10 members)', async () => {
    const contested = await project({ target: 100_000, minInvestment: 5_000 });
    const members = await Promise.all(Array.from({ length: 10 }, () => investor(ctx, 30_000_00)));
    // 30 requests of 5,000 to 8,500: together 202,500, twice what the project can take.
    const requests = Array.from({ length: 30 }, (_, i) => ({ member: members[i % 10]!, amount: 5_000 + (i % 8) * 500 }));
    const responses = await Promise.all(requests.map(({ member, amount }) => invest(member.token, contested._id, amount)));

    const accepted = requests.filter((_, i) => responses[i]!.statusCode === 201);
    const acceptedCents = accepted.reduce((sum, r) => sum + r.amount * 100, 0);
    // Refused ones are told the project is full, or how much is left.
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      const { message } = response.json();
      if (response.statusCode === 409) expect(message).toBe(m.fullyFunded);
      else expect([response.statusCode, message.startsWith(m.exceedsRemaining(''))], message).toEqual([400, true]);
    }
    expect(accepted.length).toBeGreaterThan(0);
    expect(acceptedCents).toBeLessThanOrEqual(100_000_00);
    expect(Number(await fundedOf(contested._id))).toBe(acceptedCents);
    // Each member's wallet lost exactly what was accepted from them, and none went below zero.
    for (const member of members) {
      const theirs = requests.filter((r, i) => r.member === member && responses[i]!.statusCode === 201).reduce((s, r) => s + r.amount * 100, 0);
      expect(await memberBalance(ctx.database.db, member.user.id, 'member_wallet')).toBe(30_000_00 - theirs);
      expect(await memberBalance(ctx.database.db, member.user.id, 'member_invested')).toBe(theirs);
    }
    const [{ count }] = (await rows<{ count: number }>(ctx, sql`
      select count(*)::int as count from transactions where project_id = ${contested._id}`)) as [{ count: number }];
    expect(count).toBe(accepted.length);
    await expectBooksBalanced();
  });

  it('never takes a wallet below zero, whatever arrives at once', async () => {
    const projects: Project[] = await Promise.all([project(), project(), project()]);
    const { user, token } = await investor(ctx, 12_000_00);
    const responses = await Promise.all(Array.from({ length: 9 }, (_, i) => invest(token, projects[i % 3]!._id, 5_000)));
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(2);
    for (const refused of responses.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(m.insufficientBalance);
    }
    expect(await memberBalance(ctx.database.db, user.id, 'member_wallet')).toBe(2_000_00);
    expect(await memberBalance(ctx.database.db, user.id, 'member_invested')).toBe(10_000_00);
    await expectBooksBalanced();
  });

  it('checkProjectLedger reports a funded amount, an invested balance or an investment that does not add up', async () => {
    const target = await project();
    const { user, token } = await investor(ctx, 10_000_00);
    const { transaction } = (await invest(token, target._id, 5_000)).json<InvestResponse>();
    expect(await checkProjectLedger(ctx.database.db)).toEqual([]);

    // Break each invariant behind the services' back, one at a time, and put it back.
    await ctx.database.db.execute(sql`update projects set funded_cents = funded_cents + 1 where id = ${target._id}`);
    expect((await checkProjectLedger(ctx.database.db)).map((p) => p.rule)).toEqual(['project funded equals its investments']);
    await ctx.database.db.execute(sql`update projects set funded_cents = funded_cents - 1 where id = ${target._id}`);

    await ctx.database.db.execute(sql`update transactions set status = 'failed' where id = ${transaction._id}`);
    expect((await checkProjectLedger(ctx.database.db)).map((p) => p.rule).sort()).toEqual([
      'member invested equals their investments',
      'project funded equals its investments',
    ]);
    const [{ entry }] = (await rows<{ entry: string }>(ctx, sql`select entry_id as entry from transactions where id = ${transaction._id}`)) as [{ entry: string }];
    await ctx.database.db.execute(sql`update transactions set status = 'completed', entry_id = null where id = ${transaction._id}`);
    expect(await checkProjectLedger(ctx.database.db)).toEqual([{ rule: 'investment has its journal entry', detail: `transaction ${transaction._id}` }]);
    await ctx.database.db.execute(sql`update transactions set entry_id = ${entry} where id = ${transaction._id}`);

    await ctx.database.db.execute(sql`
      update ledger_accounts set balance_cents = balance_cents + 1 where user_id = ${user.id} and kind = 'member_invested'`);
    expect((await checkProjectLedger(ctx.database.db)).map((p) => p.rule)).toEqual(['member invested equals their investments']);
    await ctx.database.db.execute(sql`
      update ledger_accounts set balance_cents = balance_cents - 1 where user_id = ${user.id} and kind = 'member_invested'`);
    await expectBooksBalanced();
  });
});
