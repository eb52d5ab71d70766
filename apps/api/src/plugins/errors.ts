import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages, type ErrorCode, type ErrorResponse } from '@terrafund/contracts';
import { isAppError, statusByCode } from '../lib/app-error';
import { isDatabaseUnavailable, pgErrorOf } from '../lib/pg-error';
import { isStorageUnavailable } from '../lib/storage';
import { setApiHeaders } from './security';
import { requestLanguage, say } from '../lib/i18n';

/** Fastify's own client errors, each to our code and a message a person can read. */
const fastifyErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: messages.validation.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: messages.validation.invalidJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: messages.validation.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: messages.validation.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_ERROR', message: messages.validation.invalidInput },
  FST_ERR_CTP_INVALID_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: messages.validation.unsupportedMediaType },
};

const INTERNAL_ERROR: ErrorResponse = { message: messages.common.unexpected, code: 'INTERNAL_ERROR' };

/**
 * One error handler: every failure leaves as `{message, code, fields?}`; 5xx details (stack, SQL, a library's
 * words) stay in the log. It must never throw itself: Fastify's fallback would then answer with the raw
 * error message, whatever it holds.
 */
export function registerErrorHandling(app: FastifyInstance, options: { dependencyDown?: () => boolean } = {}) {
  app.setErrorHandler((thrown: unknown, request, reply) => {
    const send = (status: number, body: ErrorResponse) => {
      if (body.retryAfter !== undefined) reply.header('retry-after', String(body.retryAfter));
      return reply.status(status).send(localized(request, body));
    };
    try {
      return answer(thrown, request, send, options.dependencyDown ?? (() => false));
    } catch (handlerError) {
      request.log.error({ err: handlerError, thrown, reqId: request.id }, 'error handler failed');
      return send(500, INTERNAL_ERROR);
    }
  });
}

/**
 * The body in the request's language (lib/i18n.ts): its message and each field's, when they are messages.ts texts;
 * the code stays as it is. English bodies leave untouched.
 */
function localized(request: FastifyRequest, body: ErrorResponse): ErrorResponse {
  const language = requestLanguage(request);
  if (language === 'en') return body;
  const fields = body.fields && Object.fromEntries(Object.entries(body.fields).map(([field, text]) => [field, say(language, text)]));
  return { ...body, message: say(language, body.message), ...(fields ? { fields } : {}) };
}

const SERVICE_UNAVAILABLE: ErrorResponse = { message: messages.common.serviceUnavailable, code: 'SERVICE_UNAVAILABLE', retryAfter: 5 };

function answer(
  thrown: unknown,
  request: FastifyRequest,
  send: (status: number, body: ErrorResponse) => FastifyReply,
  dependencyDown: () => boolean,
) {
  // Anything can be thrown (a string, null); only an object can be one of ours or Fastify's.
  if (thrown === null || typeof thrown !== 'object') {
    request.log.error({ thrown: String(thrown), reqId: request.id }, 'unhandled error');
    return send(500, INTERNAL_ERROR);
  }
  const error = thrown as FastifyError;

  if (isAppError(error)) {
    return send(error.status, {
      message: error.message,
      code: error.code,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    });
  }

  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const message = field === '' || !issue.message ? messages.validation.invalidInput : issue.message;
      fields[field || '_'] ??= message;
    }
    const first = Object.values(fields)[0] ?? messages.validation.invalidInput;
    return send(400, { message: first, code: 'VALIDATION_ERROR', fields });
  }

  const known = error.code ? fastifyErrors[error.code] : undefined;
  if (known) return send(statusByCode[known.code], { message: known.message, code: known.code });

  // Prototype-poisoned JSON and other malformed requests Fastify or a plugin rejects itself: our words, not
  // theirs (a library's message can name its internals).
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    const code: ErrorCode = error.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : error.statusCode === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR';
    return send(statusByCode[code], { message: clientMessages[code], code });
  }

  // A shared store this instance needs is not there: Redis (the limits and throttles) not connected, the database
  // unreachable or restarting, the bucket down. The request failed for that, not for a fault of ours; say so and
  // when to come back, as readiness does. Nothing was half-written: a statement that fails rolls its transaction back.
  const unavailable = isDatabaseUnavailable(error) ? 'database' : isStorageUnavailable(error) ? 'storage' : dependencyDown() ? 'redis' : undefined;
  if (unavailable) {
    request.log.warn({ err: { message: error.message }, dependency: unavailable, reqId: request.id }, 'dependency unavailable');
    return send(statusByCode.SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE);
  }

  // The SQLSTATE and constraint of a refused statement: Drizzle's error names only the query.
  request.log.error({ err: error, db: pgErrorOf(error), reqId: request.id }, 'unhandled error');
  return send(500, INTERNAL_ERROR);
}

const clientMessages = {
  PAYLOAD_TOO_LARGE: messages.validation.bodyTooLarge,
  UNSUPPORTED_MEDIA_TYPE: messages.validation.unsupportedMediaType,
  VALIDATION_ERROR: messages.validation.invalidInput,
} satisfies Partial<Record<ErrorCode, string>>;

/**
 * Errors Fastify's router raises before any route or error handler runs: a path it cannot decode
 * (FST_ERR_BAD_URL) or a parameter longer than any id (FST_ERR_MAX_PARAM_LENGTH). Such a path names nothing
 * we have, so it is a 404 in our shape rather than Fastify's own 400/414 body.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No route means no hooks, so the security-headers hook never ran: set a JSON answer's headers here.
  setApiHeaders(reply);
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const body: ErrorResponse = { message: messages.common.notFound, code: 'NOT_FOUND' };
    return reply.status(statusByCode.NOT_FOUND).send(localized(request, body));
  }
  request.log.error({ err: error, reqId: request.id }, 'router error');
  const body: ErrorResponse = { message: messages.common.unexpected, code: 'INTERNAL_ERROR' };
  return reply.status(500).send(localized(request, body));
}
