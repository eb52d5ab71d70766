import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';
import { jsonString, requestJson } from '../lib/logger';

const { chindingsSym, lsCacheSym, messageKeySym, mixinSym, needsMetadataGsym, streamSym, timeSym, endSym } = pino.symbols;
const MESSAGE = 'request completed';
const INFO = 30;

type Writer = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * The access line built as one string, byte for byte what `logger.info({ reqId, req, res, responseTime }, MESSAGE)`
 * writes with the request serializer of lib/logger.ts (access-log.test.ts compares the two), and handed straight
 * to the logger's destination, with the response time in milliseconds to the microsecond. Going through pino
 * instead walks the object, runs the serializers and stringifies the nested objects: about 4 µs of a small
 * answer's 45 (docs/performance.md, "GET /api/config").
 */
function lineWriter(logger: Logger): Writer | undefined {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[streamSym] as { write(line: string): void; [needsMetadataGsym]?: boolean };
  // A logger whose lines carry more than this (a mixin, another message key, a multistream that wants each line's
  // level) is written through pino.
  if (internals[mixinSym] || internals[messageKeySym] !== 'msg' || stream[needsMetadataGsym]) return undefined;
  const levelPrefix = (internals[lsCacheSym] as Record<number, string>)[INFO];
  const bindings = internals[chindingsSym] as string;
  const time = internals[timeSym] as () => string;
  const end = `,"msg":${JSON.stringify(MESSAGE)}${internals[endSym] as string}`;
  return (request, reply) =>
    stream.write(
      `${levelPrefix}${time()}${bindings},"reqId":${jsonString(request.id)},"req":${requestJson(request)},"res":{"statusCode":${reply.statusCode}},"responseTime":${milliseconds(reply.elapsedTime)}${end}`,
    );
}

/**
 * A duration in milliseconds to the microsecond ("2.863"), written from two integers: printing the double
 * Fastify measures (2.862984999999753) took about half a microsecond a line.
 */
export function milliseconds(value: number): string {
  const micros = Math.round(value * 1000);
  if (!(micros >= 0 && micros <= 0x7fffffff)) return JSON.stringify(value);
  const whole = Math.floor(micros / 1000);
  const fraction = micros - whole * 1000;
  return `${whole}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

/** The same line through pino, for a logger lineWriter() cannot write for. */
function pinoWriter(logger: Logger): Writer {
  const accessLog = logger.child({}, { redact: [] });
  return (request, reply) =>
    accessLog.info({ reqId: request.id, req: request, res: reply, responseTime: Number(milliseconds(reply.elapsedTime)) }, MESSAGE);
}

/**
 * One access-log line per request, written when the response has gone: method, URL, status and time taken,
 * with the request id. Replaces Fastify's own pair of lines ("incoming request" and "request completed",
 * `disableRequestLogging` in app.ts): on a small answer, writing two JSON lines cost more than the request
 * itself (docs/performance.md, "GET /api/config against a bare server").
 *
 * The line holds nothing secret by construction (method, path without its query string, host and address; no
 * headers, no body), so it skips the redaction every other line goes through (lib/logger.ts): matching its
 * paths cost about 75 µs a line.
 */
export function registerAccessLog(app: FastifyInstance) {
  const logger = app.log as unknown as Logger;
  const write = lineWriter(logger) ?? pinoWriter(logger);
  app.addHook('onResponse', (request, reply, done) => {
    if (logger.isLevelEnabled('info')) write(request, reply);
    done();
  });
}
