import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/plugins/access';
import { bearer, createMemberAndAdmin, randomId, rows, useTestApp } from './test-app';

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema> };
type OpenApi = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
};

/**
 * A body each known route would accept, so that one bad field is the only thing wrong with it. The credentials
 * name nobody, so even a wrongly accepted body could not sign anyone in. Routes added later fall back to {}.
 */
const validBodies: Record<string, Record<string, unknown>> = {
  'POST /api/users/register': { firstName: 'Jane', lastName: 'Doe', email: 'bad.input@example.com', password: 'long-enough-1', phone: '+1 555 0100' },
  'POST /api/users/login': { email: 'bad.input@example.com', password: 'long-enough-1', rememberMe: true },
  'POST /api/users/verify-otp': { email: 'bad.input@example.com', otp: '123456' },
  'POST /api/users/resend-otp': { email: 'bad.input@example.com' },
  'POST /api/users/forgot-password': { email: 'bad.input@example.com' },
  'POST /api/users/reset-password': { token: 'not-a-token', newPassword: 'long-enough-1' },
  'POST /api/users/change-password': { currentPassword: 'not-the-password', newPassword: 'long-enough-1' },
  'POST /api/users/2fa/setup': { password: 'not-the-password' },
  'POST /api/users/2fa/enable': { password: 'not-the-password', code: '123456' },
  'POST /api/users/2fa/disable': { password: 'not-the-password', code: '123456' },
  'PATCH /api/users/profile': { firstName: 'Jane' },
  'PATCH /api/users/:id': { firstName: 'Jane' },
  'POST /api/admin/payments/:id/review': { decision: 'reject', note: 'Refunded at the provider' },
};

const wrongTypes: [name: string, value: unknown][] = [
  ['a number', 12345678],
  ['a boolean', true],
  ['an object', { $gt: '' }],
  ['an array', ['a@example.com']],
  ['null', null],
  ['a very long string', 'x'.repeat(20_000)],
  // PostgreSQL text cannot hold U+0000: it must be refused as input, not fail in the database.
  ['a string with a NUL character', 'Jo\u0000hn@example.com'],
];

describe('bad input', () => {
  const ctx = useTestApp();
  let adminToken: string;
  let targetId: string;
  let bodyRoutes: (RegisteredRoute & { fields: Record<string, JsonSchema> })[];

  beforeAll(async () => {
    const people = await createMemberAndAdmin(ctx);
    adminToken = people.adminToken;
    targetId = people.member.id;

    // The routes that take a body, and its fields, from the OpenAPI document built from the route schemas.
    const doc = ctx.app.swagger() as unknown as OpenApi;
    bodyRoutes = ctx.app.routesRegistry.flatMap((route) => {
      const openApiPath = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      const operation = doc.paths[openApiPath]?.[route.method.toLowerCase()];
      const schema = operation?.requestBody?.content?.['application/json']?.schema;
      return schema ? [{ ...route, fields: schema.properties ?? {} }] : [];
    });
  });

  /** Everything a bad request could have changed. */
  const snapshot = async () => ({
    users: await rows(ctx, sql`select * from users order by id`),
    sessions: await rows(ctx, sql`select * from sessions order by id`),
    codes: await rows(ctx, sql`select * from email_codes order by id`),
    resets: await rows(ctx, sql`select * from password_reset_tokens order by id`),
    mail: await rows(ctx, sql`select * from mail_outbox order by id`),
  });

  const send = (route: RegisteredRoute, payload: string, contentType = 'application/json') =>
    ctx.app.inject({
      method: route.method as 'POST',
      url: route.url.replace(/:[A-Za-z_]+/g, targetId),
      // Signed in as an admin, so that every route gets as far as reading its body.
      headers: { ...bearer(adminToken), 'content-type': contentType },
      payload,
    });

  it('finds the routes that take a body', () => {
    const names = bodyRoutes.map((r) => `${r.method} ${r.url}`);
    expect(names).toEqual(expect.arrayContaining(Object.keys(validBodies)));
    expect(names).not.toContain('POST /api/users/logout');
  });

  it('answers every malformed body with a 4xx {message, code} and changes nothing', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const check = (label: string, response: Awaited<ReturnType<typeof send>>, expected?: number[], code?: string) => {
      const status = response.statusCode;
      let body: { message?: unknown; code?: unknown } = {};
      try {
        body = response.json();
      } catch {
        failures.push(`${label}: ${status} answered non-JSON ${response.body.slice(0, 100)}`);
        return;
      }
      if (status < 400 || status >= 500) failures.push(`${label}: ${status} ${response.body.slice(0, 200)}`);
      else if (expected && !expected.includes(status)) failures.push(`${label}: ${status}, expected ${expected.join(' or ')}`);
      if (typeof body.message !== 'string' || typeof body.code !== 'string') failures.push(`${label}: no message/code in ${response.body.slice(0, 200)}`);
      else if (code && body.code !== code) failures.push(`${label}: code ${body.code}, expected ${code}`);
    };

    for (const route of bodyRoutes) {
      const name = `${route.method} ${route.url}`;
      const valid = validBodies[name] ?? {};

      check(`${name} invalid JSON`, await send(route, '{"email": "a@example.com",'), [400], 'INVALID_JSON');
      check(`${name} empty body`, await send(route, ''), [400]);
      check(`${name} JSON array`, await send(route, JSON.stringify([valid])), [400]);
      check(`${name} JSON string`, await send(route, '"hello"'), [400]);
      check(`${name} JSON null`, await send(route, 'null'), [400]);
      check(`${name} JSON number`, await send(route, '42'), [400]);
      check(`${name} JSON true`, await send(route, 'true'), [400]);
      check(
        `${name} 200 KB body`,
        await send(route, JSON.stringify({ ...valid, padding: 'x'.repeat(200 * 1024) })),
        [413],
        'PAYLOAD_TOO_LARGE',
      );
      check(`${name} text/plain`, await send(route, JSON.stringify(valid), 'text/plain'), [400, 415]);
      check(`${name} form-encoded`, await send(route, 'email=a%40example.com', 'application/x-www-form-urlencoded'), [400, 415]);
      check(`${name} __proto__`, await send(route, '{"__proto__": {"role": "admin"}}'), [400]);
      check(
        `${name} __proto__ beside valid fields`,
        await send(route, JSON.stringify(valid).replace(/^\{/, '{"__proto__": {"role": "admin", "isAdmin": true},')),
        [400],
      );
      check(`${name} constructor.prototype`, await send(route, '{"constructor": {"prototype": {"role": "admin"}}}'), [400]);

      for (const [field, fieldSchema] of Object.entries(route.fields)) {
        for (const [kind, value] of wrongTypes) {
          // A value of a type the field accepts is not "wrong": skip it (strings and objects are always probed).
          const accepted = [fieldSchema.type, ...(fieldSchema.anyOf ?? []).map((s) => s.type)].flat();
          const kindOf = value === null ? 'null' : typeof value;
          if (kindOf !== 'string' && kindOf !== 'object' && (accepted.includes(kindOf) || (kindOf === 'number' && accepted.includes('integer')))) continue;
          check(`${name} ${field} as ${kind}`, await send(route, JSON.stringify({ ...valid, [field]: value })), [400], 'VALIDATION_ERROR');
        }
      }
    }

    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
    // Nothing leaked into the prototype of plain objects either.
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it('answers 4xx, never 5xx, to odd paths and query strings', async () => {
    const before = await snapshot();
    const urls = [
      `/api/users/${randomId()}?page=1&page=2`,
      '/api/users?page=1&page=2',
      '/api/users?limit=1e400',
      '/api/users?search[]=a&search[]=b',
      '/api/users?search=%00',
      '/api/users?search=a%00b',
      '/api/admin/users?search=%ED%A0%80',
      `/api/users?search=${'%25'.repeat(50)}`,
      '/api/users/%E0%A4%A',
      `/api/users/${'a'.repeat(5000)}`,
      '/api/nothing-here',
    ];
    for (const url of urls) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: bearer(adminToken) });
      expect(response.statusCode, url).toBeLessThan(500);
      if (response.statusCode >= 400) {
        expect(response.json(), url).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});
