import { describe, expect, it } from 'vitest';
import { waitFor } from '../processes/harness';
import { bearer, faultsSkipReason, json } from './backends';
import { expectServingWithout, useFaultInstance } from './fault-instance';

/**
 * Redis stops and comes back: the limited routes (sign-in, sign-up, codes) answer 503 with Retry-After meanwhile,
 * since their limits cannot be counted; every other route works; once Redis is back the limits count again.
 */
describe.skipIf(faultsSkipReason)('Redis stops and comes back', () => {
  const run = useFaultInstance('redis');

  const login = (password: string) => fetch(`${run.instance.url}/api/users/login`, json({ email: run.member.email, password }));

  it('answers the limited routes 503 with Retry-After while Redis is down, and serves every other route', async () => {
    expect((await login(run.member.password)).status).toBe(200);
    await run.backends.redis.stop();

    const refused = await waitFor('sign-in to be refused while Redis is down', async () => {
      const response = await login(run.member.password);
      return response.status === 503 && response;
    }, 20_000, 200);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    for (const [path, body] of [
      ['/api/users/register', { firstName: 'Ada', lastName: 'Down', email: 'redis.down@terrafund.test', password: 'Tf-correct-horse-9' }],
      ['/api/users/forgot-password', { email: run.member.email }],
      ['/api/users/resend-otp', { email: run.member.email }],
    ] as const) {
      const response = await fetch(`${run.instance.url}${path}`, json(body));
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after'), path).toMatch(/^\d+$/);
    }

    // Everything that is not limited works: sessions and money live in PostgreSQL.
    for (const path of ['/api/users/profile', '/api/users/dashboard', '/api/transactions', '/api/notifications', '/api/projects']) {
      expect((await fetch(`${run.instance.url}${path}`, bearer(run.member.token))).status, path).toBe(200);
    }
    expect((await fetch(`${run.instance.url}/api/plans`)).status).toBe(200);
    const edited = await fetch(`${run.instance.url}/api/users/profile`, {
      method: 'PATCH',
      headers: { ...(bearer(run.member.token).headers as Record<string, string>), 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Redisless' }),
    });
    expect(edited.status).toBe(200);
    // The proxy is told the instance cannot serve everything.
    await expectServingWithout(run.instance, 'redis');
  });

  it('counts the limits again once Redis is back', async () => {
    await run.backends.redis.start();
    await waitFor('health to be 200 with Redis back', async () => (await fetch(`${run.instance.url}/api/health`)).status === 200, 30_000, 200);
    expect((await login(run.member.password)).status).toBe(200);
    // Failed sign-ins per account and address: 10 are answered, the next is limited (counted in the new Redis).
    for (let i = 0; i < 10; i += 1) expect((await login('Wrong-password-1')).status).toBe(400);
    const limited = await login('Wrong-password-1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
