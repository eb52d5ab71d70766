import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../processes/harness';
import { waitFor } from '../processes/harness';
import { bearer, discard, faultsSkipReason, json, ledgerCheck, login, startFaultBackends, type FaultBackends } from './backends';
import { byStatus, fundedMember, HANG_MS, startLoad, type LoadRequest, type Outcome } from './load';
import { btcAddress, withdrawalBody } from '../withdrawals';

/** How soon after the database answers again /api/health must say 200. */
const HEALTHY_WITHIN_MS = 5_000;

/**
 * PostgreSQL restarts under load: `pg_ctl restart -m fast` (every session ended, the server back in a moment), then a
 * stop of 3 seconds and a start, while clients keep reading and writing (profile reads and edits, transaction lists,
 * withdrawals). The server must not exit; every answer during the outage is a 503 with Retry-After, never a 500 and
 * never later than 10 s; /api/health says 503 meanwhile and 200 within 5 s of the database answering; afterwards every
 * withdrawal answered 201 is in the database with its ledger entry and `npm run ledger:check` passes.
 */
describe.skipIf(faultsSkipReason)('PostgreSQL restarts under load', () => {
  let backends: FaultBackends;
  let instance: Instance;
  let members: Awaited<ReturnType<typeof fundedMember>>[];

  beforeAll(async () => {
    backends = await startFaultBackends('pgrestart');
    instance = await backends.start('pgrestart');
    const adminToken = await login(instance.url, backends.admin.email, backends.admin.password);
    members = [];
    for (let i = 0; i < 3; i += 1) members.push(await fundedMember(backends, instance.url, adminToken));
  });
  afterAll(async () => {
    await discard(instance);
    await backends?.close();
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(instance?.output().slice(-8000));
  });

  /** Per member: reads, a profile edit, and a withdrawal of 25 now and then (the money write under test). */
  const clients = (): (() => LoadRequest)[] =>
    members.flatMap((member, m) => {
      let turn = 0;
      const auth = bearer(member.token).headers as Record<string, string>;
      const reads = (): LoadRequest => {
        turn += 1;
        return turn % 2 === 0
          ? { label: 'GET /api/users/profile', path: '/api/users/profile', init: { headers: auth } }
          : { label: 'GET /api/transactions', path: '/api/transactions?limit=20', init: { headers: auth } };
      };
      let writes = 0;
      const write = (): LoadRequest => {
        writes += 1;
        return writes % 3 === 0
          ? { label: 'POST withdrawal', path: '/api/transactions', init: json(withdrawalBody(25, { walletAddress: btcAddress(`fault${m}x${writes}`), password: member.password }), member.token) }
          : { label: 'PATCH /api/users/profile', path: '/api/users/profile', init: { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ firstName: `Ada${writes}` }) } };
      };
      return [reads, write];
    });

  const health = async () => {
    try {
      return (await fetch(`${instance.url}/api/health`, { signal: AbortSignal.timeout(HANG_MS) })).status;
    } catch {
      return -1;
    }
  };

  /** Health polled every 100 ms while `during` runs: the statuses seen, and when it was 200 again after `during`. */
  async function watchHealth(during: () => Promise<unknown>) {
    const seen: number[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        seen.push(await health());
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await during();
    const answering = Date.now();
    watching = false;
    await watcher;
    await waitFor('/api/health to answer 200 again', async () => (await health()) === 200, 60_000, 100);
    return { seen, healthyAfterMs: Date.now() - answering };
  }

  function expectServedThrough(outcomes: Outcome[]) {
    const bad = outcomes.filter((o) => o.status >= 500 && o.status !== 503);
    expect(bad, `answers other than 2xx/4xx/503: ${JSON.stringify(bad.slice(0, 5))} (${JSON.stringify(byStatus(outcomes))})`).toEqual([]);
    const hung = outcomes.filter((o) => o.status <= 0 || o.ms > HANG_MS);
    expect(hung, `no answer within ${HANG_MS} ms: ${JSON.stringify(hung.slice(0, 5))}`).toEqual([]);
    const unavailable = outcomes.filter((o) => o.status === 503);
    for (const o of unavailable) expect(o.retryAfter, JSON.stringify(o)).toMatch(/^\d+$/);
    return unavailable.length;
  }

  it('answers 503 with Retry-After (never 500, never a hang) through `pg_ctl restart -m fast`, and stays up', async () => {
    const load = startLoad(instance.url, clients());
    await new Promise((r) => setTimeout(r, 1500));
    const { healthyAfterMs } = await watchHealth(() => backends.cluster.restart());
    await new Promise((r) => setTimeout(r, 1500));
    const outcomes = await load.stop();
    console.log(`[faults] pg_ctl restart -m fast: ${outcomes.length} requests, by status ${JSON.stringify(byStatus(outcomes))}; healthy ${healthyAfterMs} ms after the database answered`);
    expectServedThrough(outcomes);
    expect(healthyAfterMs).toBeLessThan(HEALTHY_WITHIN_MS);
    expect(outcomes.filter((o) => o.status >= 200 && o.status < 300).length).toBeGreaterThan(0);
    expect(instance.child.exitCode).toBeNull();
  });

  it('answers 503 with Retry-After through a 3-second stop, health 503 meanwhile and 200 within 5 s of the database answering', async () => {
    const load = startLoad(instance.url, clients());
    await new Promise((r) => setTimeout(r, 1000));
    const { seen, healthyAfterMs } = await watchHealth(async () => {
      await backends.cluster.stop('fast');
      await new Promise((r) => setTimeout(r, 3000));
      await backends.cluster.start();
    });
    await new Promise((r) => setTimeout(r, 1500));
    const outcomes = await load.stop();
    console.log(`[faults] 3-second stop: ${outcomes.length} requests, by status ${JSON.stringify(byStatus(outcomes))}; health seen ${JSON.stringify(byStatus(seen.map((status) => ({ status }) as Outcome)))}; healthy ${healthyAfterMs} ms after`);
    const unavailable = expectServedThrough(outcomes);
    // The outage was real: requests and the health check saw it.
    expect(unavailable).toBeGreaterThan(0);
    expect(seen).toContain(503);
    expect(seen.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(healthyAfterMs).toBeLessThan(HEALTHY_WITHIN_MS);
    expect(instance.child.exitCode).toBeNull();
    // Served again without a restart of the server.
    expect((await fetch(`${instance.url}/api/users/profile`, bearer(members[0]!.token))).status).toBe(200);
  });

  it('left nothing half-written: each withdrawal is whole (row, hold entry, balance) and `npm run ledger:check` passes', async () => {
    const rows = await backends.sql<{ id: string; entry_id: string | null; postings: number }>(
      `select t.id, t.entry_id, (select count(*)::int from postings p where p.entry_id = t.entry_id) as postings
       from transactions t where t.type = 'withdrawal'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row, 'a withdrawal without its hold entry').toMatchObject({ entry_id: expect.any(String), postings: 2 });
    for (const member of members) {
      const [count] = await backends.sql<{ n: number }>(`select count(*)::int as n from transactions where user_id = $1 and type = 'withdrawal'`, [member.id]);
      const dashboard = (await (await fetch(`${instance.url}/api/users/dashboard`, bearer(member.token))).json()) as { walletBalance: number };
      expect(Math.round(dashboard.walletBalance * 100)).toBe(member.balanceCents - count!.n * 2500);
    }
    const check = await ledgerCheck(backends.env.DATABASE_URL!);
    expect(check.code, check.output).toBe(0);
  });
});
