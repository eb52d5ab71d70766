import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages, type ErrorCode, type ErrorResponse } from '@terrafund/contracts';
import { isAppError, statusByCode } from '../lib/app-error';

/** Fastify's own client errors, each to our code and a message a person can read. */
const fastifyErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: messages.validation.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: messages.validation.invalidJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: messages.validation.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: messages.validation.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_ERROR', message: messages.validation.invalidInput },
  FST_ERR_CTP_INVALID_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: messages.validation.unsupportedMediaType },
};

/** One error handler: every failure leaves as `{message, code, fields?}`; 5xx details stay in the log. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: ErrorResponse) => {
      if (body.retryAfter !== undefined) reply.header('retry-after', String(body.retryAfter));
      return reply.status(status).send(body);
    };

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

    // Prototype-poisoned JSON and other malformed requests Fastify rejects itself.
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code: ErrorCode = error.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : error.statusCode === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR';
      return send(statusByCode[code], { message: code === 'VALIDATION_ERROR' ? messages.validation.invalidInput : error.message, code });
    }

    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return send(500, { message: messages.common.unexpected, code: 'INTERNAL_ERROR' });
  });
}

/**
 * Errors Fastify's router raises before any route or error handler runs: a path it cannot decode
 * (FST_ERR_BAD_URL) or a parameter longer than any id (FST_ERR_MAX_PARAM_LENGTH). Such a path names nothing
 * we have, so it is a 404 in our shape rather than Fastify's own 400/414 body.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No route means no hooks, so helmet never ran: these answers carry the strictest headers by hand.
  reply
    .header('content-security-policy', "default-src 'none'; base-uri 'none'; frame-ancestors 'none'")
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store');
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const body: ErrorResponse = { message: messages.common.notFound, code: 'NOT_FOUND' };
    return reply.status(statusByCode.NOT_FOUND).send(body);
  }
  request.log.error({ err: error, reqId: request.id }, 'router error');
  const body: ErrorResponse = { message: messages.common.unexpected, code: 'INTERNAL_ERROR' };
  return reply.status(500).send(body);
}
