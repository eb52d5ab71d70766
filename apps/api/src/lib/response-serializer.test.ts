import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler, valueChangingPart } from './response-serializer';

async function appAnswering(schema: z.ZodType, body: unknown) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.get('/thing', { schema: { response: { 200: schema } } }, async () => body as never);
  await app.ready();
  return app;
}

describe('the response serializer', () => {
  it('answers what the schema describes: unknown keys dropped, checks kept', async () => {
    const schema = z.object({ id: z.string(), amountCents: z.number().int(), note: z.string().nullable(), tags: z.array(z.enum(['a', 'b'])) });
    const app = await appAnswering(schema, { id: 'x', amountCents: 5, note: null, tags: ['a'], passwordHash: 'secret' });
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"id":"x","amountCents":5,"note":null,"tags":["a"]}');
    await app.close();
  });

  it('refuses to send a body the schema does not describe', async () => {
    const app = await appAnswering(z.object({ amountCents: z.number().int() }), { amountCents: 1.5 });
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('1.5');
    await app.close();
  });

  it('refuses, when the route is registered, a response schema that would change a value', async () => {
    const changing = [
      z.object({ a: z.string().transform((s) => s.length) }),
      z.object({ list: z.array(z.object({ b: z.string().default('x') })) }),
      z.object({ c: z.number().catch(0) }),
      z.union([z.string(), z.object({ d: z.string().optional().prefault('y') })]),
      z.codec(z.iso.datetime(), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }),
    ];
    for (const schema of changing) {
      await expect(appAnswering(schema, {})).rejects.toThrow(/changes values/);
    }
  });

  it('finds the part that would change a value, wherever it is', () => {
    expect(valueChangingPart(z.object({ a: z.object({ b: z.array(z.string().nullable().default(null)) }) }))).toBe('.a.b[]: default');
    const node: z.ZodType = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    expect(valueChangingPart(node)).toBeUndefined();
    expect(valueChangingPart(z.object({ s: z.string().trim().max(5), r: z.record(z.string(), z.number()), p: z.string().pipe(z.email()) }))).toBeUndefined();
  });
});
