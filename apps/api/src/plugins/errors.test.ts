import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { bearer, createUser, loginAs, useTestApp } from '../../test/test-app';
import { connectPostgres } from '../db/client';
import { StorageUnavailableError } from '../lib/storage';
import { registerErrorHandling } from './errors';

const GENERIC = { message: messages.common.unexpected, code: 'INTERNAL_ERROR' };

/** Nothing of an internal failure (stack, SQL, a library's words) reaches the client in production. */
describe('error bodies in production', () => {
  const ctx = useTestApp({ config: { env: 'production' } });
  let token: string;
  beforeAll(async () => {
    const user = await createUser(ctx);
    token = await loginAs(ctx, user.email);
  });

  it('answers a failing query with the generic message and code only', async () => {
    // Every signed-in request reads the sessions table; without it each one fails inside SQL.
    await ctx.database.db.execute(sql`alter table sessions rename to sessions_gone`);
    try {
      for (const [method, url] of [
        ['GET', '/api/users/profile'],
        ['GET', '/api/transactions'],
        ['POST', '/api/users/logout'],
      ] as const) {
        const response = await ctx.app.inject({ method, url, headers: bearer(token) });
        expect(response.statusCode, url).toBe(500);
        expect(response.json(), url).toEqual(GENERIC);
        expect(response.body, url).not.toMatch(/select|sessions|relation|at .*\.ts|params/i);
      }
    } finally {
      await ctx.database.db.execute(sql`alter table sessions_gone rename to sessions`);
    }
  });
});

describe('the error handler', () => {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  app.get('/sql', async () => {
    throw new Error('Failed query: select password_hash from users where id = $1\nparams: 42');
  });
  app.get('/string', async () => {
    throw 'select secret from users';
  });
  app.get('/null', async () => {
    throw null;
  });
  app.get('/library-413', async () => {
    throw Object.assign(new Error('relation "kyc_documents" row too large at /srv/app/src/x.ts:1'), { statusCode: 413 });
  });
  app.get('/library-415', async () => {
    throw Object.assign(new Error('parser for text/x-internal missing in /srv/app'), { statusCode: 415 });
  });
  app.get('/library-502', async () => {
    throw Object.assign(new Error('upstream said: select 1'), { statusCode: 502 });
  });
  afterAll(() => app.close());

  it('never answers with what was thrown, whatever was thrown', async () => {
    for (const url of ['/sql', '/string', '/null', '/library-502']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(500);
      expect(response.json(), url).toEqual(GENERIC);
    }
    expect((await app.inject({ url: '/library-413' })).json()).toEqual({ message: messages.validation.bodyTooLarge, code: 'PAYLOAD_TOO_LARGE' });
    expect((await app.inject({ url: '/library-415' })).json()).toEqual({ message: messages.validation.unsupportedMediaType, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});

/**
 * A database that is unreachable or restarting, or a bucket that is down, is an outage the client should wait out:
 * 503 with Retry-After, never a 500. The errors are the ones the drivers really raise (a refused connection through
 * the pool, Drizzle's wrapper around PostgreSQL's own SQLSTATEs).
 */
describe('the error handler during an outage', () => {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  const unreachable = connectPostgres('postgres://postgres@127.0.0.1:9/none', 1);
  const drizzleWrapped = (cause: object) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });
  app.get('/refused', async () => unreachable.db.execute(sql`select 1`));
  app.get('/admin-shutdown', async () => {
    throw drizzleWrapped(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
  });
  app.get('/starting-up', async () => {
    throw drizzleWrapped(Object.assign(new Error('the database system is starting up'), { code: '57P03' }));
  });
  app.get('/connection-failure', async () => {
    throw drizzleWrapped(Object.assign(new Error('connection failure'), { code: '08006' }));
  });
  app.get('/terminated', async () => {
    throw drizzleWrapped(new Error('Connection terminated unexpectedly'));
  });
  app.get('/bucket-down', async () => {
    throw new StorageUnavailableError('put', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }));
  });
  app.get('/constraint', async () => {
    throw drizzleWrapped(Object.assign(new Error('duplicate key'), { code: '23505' }));
  });
  afterAll(async () => {
    await app.close();
    await unreachable.close();
  });

  it('answers 503 with Retry-After for each, and the generic message only', async () => {
    for (const url of ['/refused', '/admin-shutdown', '/starting-up', '/connection-failure', '/terminated', '/bucket-down']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after'], url).toBe('5');
      expect(response.json(), url).toEqual({ message: messages.common.serviceUnavailable, code: 'SERVICE_UNAVAILABLE', retryAfter: 5 });
    }
  });

  it('still answers 500 for a statement the database refused (a bug, not an outage)', async () => {
    const response = await app.inject({ url: '/constraint' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual(GENERIC);
  });
});
