import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';
import { TurnBatchedDestination } from '../lib/log-destination';
import { jsonString, requestJson } from '../lib/logger';

const { chindingsSym, lsCacheSym, messageKeySym, mixinSym, needsMetadataGsym, streamSym, timeSym, endSym } = pino.symbols;
const MESSAGE = 'request completed';
const INFO = 30;

type Writer = (request: FastifyRequest, reply: FastifyReply) => void;

/** What lineWriter() reads of a pino logger to write its lines itself, or undefined when its lines carry more. */
function lineParts(logger: Logger) {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[streamSym] as { write(line: string): void; [needsMetadataGsym]?: boolean };
  // A logger whose lines carry more than this (a mixin, another message key, a multistream that wants each line's
  // level) is written through pino.
  if (internals[mixinSym] || internals[messageKeySym] !== 'msg' || stream[needsMetadataGsym]) return undefined;
  return {
    stream,
    levelPrefix: (internals[lsCacheSym] as Record<number, string>)[INFO]!,
    bindings: internals[chindingsSym] as string,
    time: internals[timeSym] as () => string,
    end: `,"msg":${JSON.stringify(MESSAGE)}${internals[endSym] as string}`,
  };
}

/**
 * The access line as one string, byte for byte what `logger.info({ reqId, req, res, responseTime }, MESSAGE)`
 * writes with the request serializer of lib/logger.ts (access-log.test.ts compares the two), handed straight to
 * the logger's destination, with the response time in milliseconds to the microsecond. Going through pino instead
 * walks the object, runs the serializers and stringifies the nested objects: about 4 µs of a small answer's 45
 * (docs/performance.md, "GET /api/config"). On the server's own destination the line is not even built as a
 * string (bytesWriter()).
 */
function lineWriter(logger: Logger): Writer | undefined {
  const parts = lineParts(logger);
  if (!parts) return undefined;
  const { stream, levelPrefix, bindings, time, end } = parts;
  const line = (request: FastifyRequest, reply: FastifyReply) =>
    `${levelPrefix}${time()}${bindings},"reqId":${jsonString(request.id)},"req":${requestJson(request)},"res":{"statusCode":${reply.statusCode}},"responseTime":${milliseconds(reply.elapsedTime)}${end}`;
  if (stream instanceof TurnBatchedDestination) return bytesWriter(stream, parts, line);
  return (request, reply) => stream.write(line(request, reply));
}

/**
 * The same line written into the destination's buffer (lib/log-destination.ts) mostly as bytes already made, since
 * most of it repeats: the start up to the request id changes once a millisecond (its time), the request part
 * (method, path, host, address, port) is usually the same as the connection's previous request, and the status
 * with the key after it takes a handful of values. Each is kept as bytes and copied in; only the request id and the
 * response time are written afresh. Building the line as a string from its twenty pieces, flattening it, joining it
 * with the turn's other lines and encoding it was most of what the whole stack adds to a small answer over a
 * minimal Fastify app (docs/performance.md, "GET /api/config").
 */
function bytesWriter(
  destination: TurnBatchedDestination,
  parts: NonNullable<ReturnType<typeof lineParts>>,
  line: (request: FastifyRequest, reply: FastifyReply) => string,
): Writer {
  const { levelPrefix, bindings, time } = parts;
  const epoch = time === pino.stdTimeFunctions.epochTime;
  const end = Buffer.from(parts.end);
  // `{"level":30,"time":1795931683394,"pid":9351,"hostname":"vm","reqId":` for the millisecond `startAt`.
  let start = Buffer.alloc(0);
  let startAt = -1;
  const statuses: Buffer[] = [];
  const connections = new WeakMap<object, { method: string; url: string; host: string; ip: string; bytes: Buffer }>();

  return (request, reply) => {
    const { id, method, url, host, ip } = request;
    const socket = request.raw.socket as object | undefined;
    let known = socket && connections.get(socket);
    if (!known || known.method !== method || known.url !== url || known.host !== host || known.ip !== ip) {
      // A request that is not over a connection (no address or port) is written as pino's serializer writes it.
      if (!socket || method === undefined || url === undefined || host === undefined || ip === undefined || request.socket.remotePort === undefined) {
        destination.write(line(request, reply));
        return;
      }
      known = { method, url, host, ip, bytes: Buffer.from(`,"req":${requestJson(request)}`) };
      connections.set(socket, known);
    }

    const now = epoch ? Date.now() : -1;
    if (now !== startAt || !epoch) {
      start = Buffer.from(`${levelPrefix}${epoch ? `,"time":${now}` : time()}${bindings},"reqId":`);
      startAt = now;
    }
    const code = reply.statusCode;
    const status = (statuses[code] ??= Buffer.from(`,"res":{"statusCode":${code}},"responseTime":`));

    // A string JSON escapes takes at most six bytes for each UTF-16 unit (\u001f); a response time at most 24.
    const maxBytes = start.length + 6 * id.length + 2 + known.bytes.length + status.length + 24 + end.length;
    let at = destination.reserve(maxBytes);
    const buffer = destination.buffer;
    at = copy(buffer, at, start);
    at = putString(buffer, at, id);
    at = copy(buffer, at, known.bytes);
    at = copy(buffer, at, status);
    at = putMilliseconds(buffer, at, reply.elapsedTime);
    destination.commit(copy(buffer, at, end));
  };
}

const copy = (buffer: Buffer, at: number, bytes: Buffer): number => {
  buffer.set(bytes, at);
  return at + bytes.length;
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * `jsonString(text)` in UTF-8 at `at`; returns where it ends. Plain ASCII that JSON leaves as it is (a request id)
 * is copied character by character; anything else (a control, a quote, a backslash, a character past U+007F) goes
 * through `jsonString` and UTF-8.
 */
function putString(buffer: Buffer, at: number, text: string): number {
  buffer[at] = QUOTE;
  let to = at + 1;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === QUOTE || code === BACKSLASH || code > 0x7f) return at + buffer.write(jsonString(text), at);
    buffer[to] = code;
    to += 1;
  }
  buffer[to] = QUOTE;
  return to + 1;
}

/** `${value}` at `at` for a whole number from 0 to 2^53 (the milliseconds of a response time), else as text. */
function putInteger(buffer: Buffer, at: number, value: number): number {
  if (!(Number.isSafeInteger(value) && value >= 0)) return at + buffer.write(String(value), at, 'latin1');
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  let rest = value;
  for (let to = at + digits - 1; to >= at; to -= 1) {
    const next = Math.floor(rest / 10);
    buffer[to] = 0x30 + rest - next * 10;
    rest = next;
  }
  return at + digits;
}

/** milliseconds(value) at `at`. */
function putMilliseconds(buffer: Buffer, at: number, value: number): number {
  const micros = Math.round(value * 1000);
  if (!(micros >= 0 && micros <= 0x7fffffff)) return at + buffer.write(JSON.stringify(value), at, 'latin1');
  const whole = Math.floor(micros / 1000);
  const fraction = micros - whole * 1000;
  const to = putInteger(buffer, at, whole);
  buffer[to] = 0x2e;
  buffer[to + 1] = 0x30 + Math.floor(fraction / 100);
  buffer[to + 2] = 0x30 + (Math.floor(fraction / 10) % 10);
  buffer[to + 3] = 0x30 + (fraction % 10);
  return to + 4;
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

/** Something done with each request once its answer has gone (the request histogram, plugins/metrics.ts). */
export type ResponseObserver = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * One access-log line per request, written when the response has gone: method, URL, status and time taken,
 * with the request id. Replaces Fastify's own pair of lines ("incoming request" and "request completed",
 * `disableRequestLogging` in app.ts): on a small answer, writing two JSON lines cost more than the request
 * itself (docs/performance.md, "GET /api/config against a bare server").
 *
 * The line holds nothing secret by construction (method, path without its query string, host and address; no
 * headers, no body), so it skips the redaction every other line goes through (lib/logger.ts): matching its
 * paths cost about 75 µs a line.
 *
 * The same hook runs the `observers`: one synchronous hook for all that follows an answer, as each hook Fastify
 * runs costs every request its turn through the hook runner (docs/performance.md).
 */
export function registerAccessLog(app: FastifyInstance, observers: ResponseObserver[] = []) {
  const logger = app.log as unknown as Logger;
  const write = lineWriter(logger) ?? pinoWriter(logger);
  app.addHook('onResponse', (request, reply, done) => {
    if (logger.isLevelEnabled('info')) write(request, reply);
    for (const observe of observers) observe(request, reply);
    done();
  });
}
