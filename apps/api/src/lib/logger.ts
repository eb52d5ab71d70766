import type { FastifyBaseLogger } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

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

let stdout: DestinationStream | undefined;

/** Lines wait until this much is pending, or FLUSH_MS has passed: under load one system call carries about 15 lines. */
const MIN_WRITE_BYTES = 4096;
const FLUSH_MS = 100;

/**
 * Standard output through pino's own destination (sonic-boom), a few kilobytes at a time and at least every FLUSH_MS,
 * so an idle server's line shows at once. The writes are synchronous: sonic-boom's asynchronous mode hands each chunk
 * to libuv's thread pool, which cost more CPU a line than the write itself (docs/decisions.md), and a reader that
 * falls behind (a full pipe) then slows the server rather than letting lines pile up in memory. What is pending when
 * the process exits is written on the way out (below; the graceful stop in server.ts flushes first); a `SIGKILL` can
 * lose the last 100 ms of lines. One destination for the process, shared by every logger that writes there, so their
 * lines keep their order.
 */
export function stdoutDestination(): DestinationStream {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: MIN_WRITE_BYTES, periodicFlush: FLUSH_MS });
    // Pino flushes an asynchronous destination on exit by itself, not a synchronous one that holds lines back.
    process.once('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

/** The server's logger: JSON lines on stdout (or `destination`), with the redaction above. */
export function createLogger(options: { level: string }, destination?: DestinationStream): Logger {
  return pino({ level: options.level, ...secureOptions }, destination ?? stdoutDestination());
}

/**
 * The same redaction on a logger made elsewhere (a test's, an embedding's): buildApp always logs through
 * this, so no caller can hand it a logger that prints query strings or signature headers.
 */
export const secureLogger = (logger: Logger): Logger => logger.child({}, secureOptions);

/** Where a lazy request logger keeps the way to its child (below). */
const real = Symbol('the child');

/**
 * A request's logger, a pino child bound to the request id, made the first time the request uses it. Making it re-runs
 * the redaction over its bindings, about 9 µs a request measured against 1 µs for a child of a logger without
 * redaction (docs/decisions.md), and most requests never log anything but the access line, which has a logger of its
 * own (plugins/access-log.ts).
 *
 * The log methods and `child` are its own, so Fastify's check of every request's logger (each is a function) makes
 * nothing. Every other member of the child (`level`, `isLevelEnabled`, `bindings`, `flush`, `on`, a member a later pino
 * adds) is found through the prototype below, a proxy that reads and sets it on the child. A request that logs writes
 * exactly the lines the child would have.
 */
class LazyChildLogger {
  #made: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  [real](): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings, this.#options));
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this[real]().child(bindings, options);
  }
}

/** The log methods Fastify checks every request's logger for; each forwards to the child, making it on first use. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogMethod = (...args: unknown[]) => void;
for (const level of LOG_LEVELS) {
  // Defined, not assigned: an assignment would reach the proxy below through the prototype chain.
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value(this: LazyChildLogger, ...args: unknown[]) {
      (this[real]()[level] as LogMethod)(...args);
    },
    writable: true,
    configurable: true,
  });
}

const childOf = (receiver: unknown) => (receiver as LazyChildLogger)[real]();
/** A request's child as buildApp's logger makes one, for `in` (a proxy's `has` is not told which logger is asked). */
const aRequestChild = secureLogger(pino({ level: 'silent' }, { write() {} })).child({ reqId: '' }, {});
Object.setPrototypeOf(
  LazyChildLogger.prototype,
  new Proxy(Object.prototype, {
    get(_target, key, receiver) {
      // Read off the prototype itself (no request's logger), there is no child to ask.
      if (!(receiver instanceof LazyChildLogger)) return undefined;
      const logger = childOf(receiver);
      const value: unknown = Reflect.get(logger, key, logger);
      return typeof value === 'function' ? value.bind(logger) : value;
    },
    set: (_target, key, value, receiver) => Reflect.set(childOf(receiver), key, value),
    has: (_target, key) => Reflect.has(aRequestChild, key),
  }),
);

/** Fastify's `childLoggerFactory` (app.ts): each request's logger, made on first use (above). */
export const lazyChildLoggerFactory = (parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
  new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
