import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messages } from '@terrafund/contracts';
import { registerErrorHandling } from './errors';
import { registerInputGuards } from './input';

/** An app with the guard and three routes: one that takes a body, one with a query schema, one that reads neither. */
async function guardedApp() {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  registerInputGuards(app);
  const reached: string[] = [];
  app.post('/things', async (request) => {
    reached.push('post');
    return { body: request.body };
  });
  app.get('/search', { schema: { querystring: z.object({ q: z.string().optional() }) } }, async (request) => {
    reached.push('search');
    return { q: request.query.q };
  });
  app.get('/plain', async () => {
    reached.push('plain');
    return { ok: true };
  });
  await app.ready();
  return { app, reached };
}

const refused = { code: 'VALIDATION_ERROR', message: messages.validation.invalidInput };

describe('the NUL guard', () => {
  it('refuses a NUL in a body or in a query a route reads, before the route runs, naming the field', async () => {
    const { app, reached } = await guardedApp();
    const body = await app.inject({ method: 'POST', url: '/things', payload: { name: 'Jo\u0000hn', nested: { ok: 'yes' } } });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toMatchObject({ ...refused, fields: { name: messages.validation.invalidInput } });
    const deep = await app.inject({ method: 'POST', url: '/things', payload: { list: [{ a: 'x\u0000' }] } });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ fields: { 'list.0.a': messages.validation.invalidInput } });
    const query = await app.inject({ method: 'GET', url: '/search?q=a%00b' });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ ...refused, fields: { q: messages.validation.invalidInput } });
    expect(reached).toEqual([]);
  });

  it('lets clean input through, and runs no check on a route that reads no body and no query', async () => {
    const { app, reached } = await guardedApp();
    expect((await app.inject({ method: 'POST', url: '/things', payload: { name: 'John' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/search?q=ab' })).json()).toEqual({ q: 'ab' });
    // The query is never read by this route, so nothing in it can reach the database.
    expect((await app.inject({ method: 'GET', url: '/plain?x=%00' })).statusCode).toBe(200);
    expect(reached).toEqual(['post', 'search', 'plain']);
  });
});
