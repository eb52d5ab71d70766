import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, postgresUrl, startInstance, startS3, startTcpProxy, waitFor, type Instance, type TestDatabase } from './harness';

type Health = { status: number; body: { status: string; failing?: string[]; dependencies?: Record<string, string> } };
const health = async (url: string): Promise<Health> => {
  const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(8000) });
  return { status: response.status, body: (await response.json()) as Health['body'] };
};

/**
 * Readiness: an instance started while its database is unreachable keeps listening and answers 503 naming the
 * database, starts (migrates, seeds, runs its jobs) once the database answers, and reports the database and the
 * bucket whenever they go away later. The database is reached through a TCP proxy the test switches off and on.
 */
describe.skipIf(!postgresUrl)('GET /api/health follows the database and the bucket', () => {
  let database: TestDatabase;
  let dbProxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let instance: Instance;

  beforeAll(async () => {
    database = await createDatabase('readiness');
    const target = new URL(postgresUrl!);
    // Nothing listens on the proxy's port yet: the database is unreachable when the instance starts.
    dbProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) }, { listening: false });
    s3 = await startS3();
    const url = new URL(database.url);
    url.port = String(dbProxy.port);
    url.hostname = '127.0.0.1';
    instance = await startInstance(
      'readiness',
      { DATABASE_URL: url.toString(), APP_SECRET: 'readiness-test-secret-0123456789-abcdefghij', LOG_LEVEL: 'error', ...s3.env },
      { waitHealthy: false },
    );
  });
  afterAll(async () => {
    await instance?.stop('SIGKILL');
    if (instance) rmSync(instance.dataDir, { recursive: true, force: true });
    await dbProxy?.off();
    await s3?.close();
    await database?.drop();
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(instance?.output().slice(-6000));
  });

  it('answers 503 naming the database while it is unreachable at start, and keeps running', async () => {
    const first = await health(instance.url);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ status: 'error', failing: ['database'], dependencies: { database: 'error', s3: 'ok' } });
    // Other API routes say the same rather than failing inside a query.
    const plans = await fetch(`${instance.url}/api/users/profile`);
    expect(plans.status).toBe(503);
    expect(await plans.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // Still there a few seconds later: no exit, no crash loop.
    await new Promise((r) => setTimeout(r, 3000));
    expect(instance.child.exitCode).toBeNull();
    expect((await health(instance.url)).status).toBe(503);
  });

  it('answers 200 once the database is reachable, after migrating and seeding', async () => {
    await dbProxy.on();
    await waitFor('the instance to become healthy', async () => (await health(instance.url)).status === 200, 90_000, 250);
    expect((await health(instance.url)).body).toEqual({ status: 'ok' });
    const [projects] = await database.query<{ count: number }>('select count(*)::int as count from projects');
    expect(projects!.count).toBe(6);
    expect((await fetch(`${instance.url}/api/users/profile`)).status).toBe(401);
  });

  it('answers 503 again while the database goes away, and 200 when it is back', async () => {
    await dbProxy.off();
    await waitFor('503 naming the database', async () => {
      const h = await health(instance.url);
      return h.status === 503 && h.body.failing?.includes('database');
    }, 20_000, 250);
    expect(instance.child.exitCode).toBeNull();
    await dbProxy.on();
    await waitFor('200 again', async () => (await health(instance.url)).status === 200, 20_000, 250);
  });

  it('answers 503 naming s3 while the bucket does not answer', async () => {
    const port = s3.port;
    await s3.close({ keepFiles: true });
    const down = await waitFor('503 naming s3', async () => {
      const h = await health(instance.url);
      return h.status === 503 && h.body;
    }, 20_000, 250);
    expect(down).toMatchObject({ status: 'error', failing: ['s3'], dependencies: { database: 'ok' } });
    s3 = await startS3('terrafund-files', port);
    await waitFor('200 with the bucket back', async () => (await health(instance.url)).status === 200, 20_000, 250);
  });
});
