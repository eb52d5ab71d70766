import type { FastifyBaseLogger } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { stdoutDestination } from './log-destination';

/**
 * The log never holds a credential (docs/security.md): verification codes, reset tokens and links, session
 * tokens, webhook signatures, API keys. Three things make sure of it, whatever the level and the mode:
 * - the access log's request line keeps the path but not the query string, where reset tokens
 *   (`/reset-password?token=…`), signed KYC links (`?sig=…`) and the sandbox checkout capability (`?key=…`) travel;
 * - headers that carry credentials are censored wherever a log object holds them;
 * - a database error keeps its SQL but not its parameter values.
 * Mail bodies are printed only by the development mail-to-log transport (modules/mail/mail.transport.ts).
 */
const REDACTED = '[redacted]';

/** Request and response headers that carry a credential or a signature. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'btcpay-sig',
  'x-nowpayments-sig',
  'sandbox-sig',
];

/** Fields that hold a secret whenever they appear in a logged object (one level deep, or at the top). */
const SECRET_FIELDS = ['password', 'newPassword', 'currentPassword', 'token', 'otp', 'code', 'sig', 'key', 'apiKey', 'secret'];

const REDACT_PATHS = [
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]),
  ...SECRET_FIELDS.flatMap((f) => [`body.${f}`, `*.body.${f}`, `query.${f}`, `*.query.${f}`]),
];

/** A URL as the log may show it: the path, and `?[redacted]` in place of any query string. */
function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return url;
  const at = url.indexOf('?');
  return at === -1 ? url : `${url.slice(0, at)}?${REDACTED}`;
}

type LoggedRequest = {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/** Fastify's request line (method, url, host, address, port), with the query string redacted. */
export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * `JSON.stringify(requestSerializer(request))`, written out field by field when every field is there (a request
 * over a connection): the access line's request part without building and walking the object (logger.test.ts
 * checks the two agree).
 */
export function requestJson(request: LoggedRequest): string {
  const { method, url, host, ip } = request;
  const port = request.socket?.remotePort;
  if (method === undefined || url === undefined || host === undefined || ip === undefined || port === undefined) {
    return JSON.stringify(requestSerializer(request));
  }
  return `{"method":${jsonString(method)},"url":${jsonString(redactUrl(url)!)},"host":${jsonString(host)},"remoteAddress":${jsonString(ip)},"remotePort":${port}}`;
}

/** Characters JSON.stringify would escape (quote, backslash, controls) or replace (lone surrogates). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON.stringify escapes
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(text)`, without the call for the usual text that needs no escaping. */
export const jsonString = (text: string): string => (NEEDS_ESCAPING.test(text) ? JSON.stringify(text) : `"${text}"`);

/** Drizzle's "Failed query: … params: …" carries the bound values (hashes, names, addresses): the SQL stays, the values go. */
const withoutParams = (text: string) => text.replace(/\nparams: [\s\S]*$/, `\nparams: ${REDACTED}`);

function errorSerializer(error: unknown) {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (!serialized || typeof serialized !== 'object') return serialized;
  delete serialized.params;
  for (const field of ['message', 'stack'] as const) {
    if (typeof serialized[field] === 'string') serialized[field] = withoutParams(serialized[field]);
  }
  return serialized;
}

const secureOptions = {
  redact: { paths: REDACT_PATHS, censor: REDACTED },
  serializers: { req: requestSerializer, err: errorSerializer },
} satisfies Pick<LoggerOptions, 'redact' | 'serializers'>;

/**
 * The server's logger: JSON lines on stdout (or `destination`), with the redaction above. The lines written during
 * one turn of the event loop go to stdout together at the end of the turn, in one system call
 * (lib/log-destination.ts).
 */
export function createLogger(options: { level: string }, destination?: DestinationStream): Logger {
  return pino({ level: options.level, ...secureOptions }, destination ?? stdoutDestination());
}

/**
 * The same redaction on a logger made elsewhere (a test's, an embedding's): buildApp always logs through
 * this, so no caller can hand it a logger that prints query strings or signature headers.
 */
export const secureLogger = (logger: Logger): Logger => logger.child({}, secureOptions);

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger that makes its pino child (bound to the request id) on first use. Fastify makes one
 * child per request, and making it re-runs the redaction over its bindings: about a tenth of a small answer's
 * CPU (docs/performance.md). Most requests never log through it (the access line has a logger of its own), so
 * most never pay for it; one that does writes exactly the lines the child would have.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private write(method: LogMethod, args: unknown[]) {
    (this.real as unknown as Record<LogMethod, (...args: unknown[]) => void>)[method](...args);
  }

  get level() {
    return this.real.level;
  }
  set level(level: string) {
    this.real.level = level;
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent(...args: unknown[]) {
    this.write('silent', args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory` (app.ts): each request's logger, made on first use (above). */
export const lazyChildLoggerFactory = (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
  new LazyChildLogger(logger, bindings, options);
