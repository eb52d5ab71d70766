import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { READINESS_MAX_AGE_MS } from '../../src/modules/health/readiness';
import { waitFor, type Instance } from '../processes/harness';
import { discard, login, signUp, startFaultBackends, type FaultBackends } from './backends';

/**
 * What a fault test of one instance starts with, inside its describe: its own backends, an instance on them and a
 * member signed up (and, with `admin`, the admin signed in); all stopped after the file, and the instance's output
 * printed when a test fails. The fields are set once the beforeAll has run.
 */
export function useFaultInstance(name: string, options: { admin?: boolean } = {}) {
  const run = {} as { backends: FaultBackends; instance: Instance; member: Awaited<ReturnType<typeof signUp>>; adminToken: string };
  beforeAll(async () => {
    run.backends = await startFaultBackends(name);
    run.instance = await run.backends.start(name);
    run.member = await signUp(run.backends, run.instance.url);
    if (options.admin) run.adminToken = await login(run.instance.url, run.backends.admin.email, run.backends.admin.password);
  });
  afterAll(async () => {
    await discard(run.instance);
    await run.backends?.close();
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(run.instance?.output().slice(-8000));
  });
  return run;
}

/**
 * The instance keeps running and tells the proxy it cannot serve everything: health answers 503 naming `dependency`.
 * Health answers from a round of checks at most READINESS_MAX_AGE_MS old, so a dependency that has just gone may
 * still read as up for that long (plus the round's own time): the first answer of a fast test can be the last
 * round's 200.
 */
export async function expectServingWithout(instance: Instance, dependency: string) {
  const health = await waitFor(
    `health to name ${dependency} failing`,
    async () => {
      const response = await fetch(`${instance.url}/api/health`);
      return response.status === 503 && response;
    },
    READINESS_MAX_AGE_MS + 5_000,
    100,
  ).catch(() => fetch(`${instance.url}/api/health`));
  expect(health.status).toBe(503);
  expect(await health.json()).toMatchObject({ failing: [dependency] });
  expect(instance.child.exitCode).toBeNull();
}
