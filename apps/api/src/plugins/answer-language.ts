import type { FastifyInstance, preSerializationHookHandler } from 'fastify';
import { z } from 'zod';
import { requestLanguage, say } from '../lib/i18n';

/** Whether a response schema's answer has a top-level `message` (`{message}`, `{id, message}`, a union with one). */
function carriesMessage(schema: unknown): boolean {
  if (schema instanceof z.ZodObject) return 'message' in schema.shape;
  if (schema instanceof z.ZodUnion) return schema.options.some(carriesMessage);
  return false;
}

/**
 * Success answers that tell the person something (`{message: 'OTP sent successfully'}`) say it in the request's
 * language, as error answers do (plugins/errors.ts). Only routes whose response schema has a `message` get the
 * hook: a hook on every route would cost each request a turn through the hook runner (plugins/input.ts).
 */
export function registerAnswerLanguage(app: FastifyInstance) {
  const localize: preSerializationHookHandler<unknown> = (request, reply, payload, done) => {
    const language = reply.statusCode < 400 ? requestLanguage(request) : 'en';
    const body = payload as { message?: unknown } | null;
    if (language === 'en' || body === null || typeof body !== 'object' || typeof body.message !== 'string') return done(null, payload);
    done(null, { ...body, message: say(language, body.message) });
  };
  app.addHook('onRoute', (route) => {
    const responses = Object.values((route.schema?.response ?? {}) as Record<string, unknown>);
    if (responses.some(carriesMessage)) route.preSerialization = [...[route.preSerialization ?? []].flat(), localize];
  });
}
