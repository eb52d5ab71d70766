import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { fastifyTrustProxy, type Config } from './config';
import type { Database } from './db/client';
import type { Deps } from './deps';
import { systemClock, type Clock } from './lib/clock';
import { createSecrets } from './lib/crypto';
import { createLogger, lazyChildLoggerFactory, secureLogger } from './lib/logger';
import { memoryThrottleStore, redisThrottleStore } from './lib/rate-limiter';
import { responseSerializerCompiler } from './lib/response-serializer';
import { connectRedis, type RedisClient } from './lib/redis';
import type { FileStorage } from './lib/storage';
import { createStorage } from './lib/storage-factory';
import { authRoutes, securityRoutes } from './modules/auth';
import { auditRoutes } from './modules/audit';
import { adminStatsRoutes, adminTransactionsRoutes } from './modules/admin';
import { dashboardRoutes } from './modules/dashboard';
import { healthRoutes, readinessChecks, readyState, type StartupState } from './modules/health';
import { kycRoutes } from './modules/kyc';
import { mailAdminRoutes } from './modules/mail';
import { notificationRoutes } from './modules/notifications';
import { createConfiguredProvider, paymentReviewRoutes, paymentRoutes, type PaymentProvider } from './modules/payments';
import { payoutRoutes } from './modules/payouts';
import { projectRoutes } from './modules/projects';
import { statementRoutes } from './modules/transactions';
import { transactionRoutes } from './modules/wallet';
import { publicUsers, userAdminRoutes } from './modules/users';
import { oneClickUnsubscribeRoutes, privacyRoutes } from './modules/privacy';
import { createConfiguredPayoutProvider, handlePayoutNotification, withdrawalRoutes, type PayoutProvider } from './modules/withdrawals';
import { registerAccessControl, type RegisteredRoute } from './plugins/access';
import { registerAnswerLanguage } from './plugins/answer-language';
import { registerAccessLog } from './plugins/access-log';
import { registerCompression } from './plugins/compress';
import { frameworkErrorHandler, registerErrorHandling } from './plugins/errors';
import { registerInputGuards } from './plugins/input';
import { registerMetrics, type Metrics } from './plugins/metrics';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimits } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security';
import { registerStartupGate } from './plugins/startup-gate';
import { readWebBuild, registerWebApp } from './plugins/web';

type BuildOptions = {
  config: Config;
  db: Database;
  clock?: Clock;
  logger?: Logger;
  /** Called after a transaction committed mail; the server wires it to the outbox worker. */
  mailQueued?: () => void;
  /** Called after a data export request committed; the server builds it at once (else the privacy job does). */
  exportQueued?: () => void;
  /** Private file storage; defaults to the S3 bucket when configured, else local disk under DATA_DIR/uploads. */
  storage?: FileStorage;
  /** Whether the server finished starting (it listens before its database answers); tests build ready apps. */
  startup?: StartupState;
  /** The payment provider; defaults to the one PAYMENT_PROVIDER configures. */
  paymentProvider?: PaymentProvider;
  /** The payout provider; defaults to the one PAYOUT_PROVIDER configures (`null`: none, as with manual). */
  payoutProvider?: PayoutProvider | null;
  /** A Redis connection to share; by default one is opened for REDIS_URL (and closed with the app). */
  redis?: RedisClient;
};

export type App = FastifyInstance & { deps: Deps; routesRegistry: RegisteredRoute[]; metrics: Metrics };

/** Largest JSON body any route accepts; uploads have their own limits. */
const JSON_BODY_LIMIT = 64 * 1024;

/** Registers every plugin and module; never listens (conventions: fastify/demo app.ts). */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  // Whatever logger is given, it logs through the redaction (no query strings, no credential headers).
  const logger = secureLogger(options.logger ?? createLogger({ level: config.logLevel }));
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Each request's logger is made when the request first logs, not for every request (lib/logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: frameworkErrorHandler,
    // One line per request, written by plugins/access-log.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // While stopping, a request that arrives on a connection already open (a proxy's keep-alive) is answered
    // normally, with `Connection: close` (plugins/startup-gate.ts), instead of Fastify's 503: no request is dropped
    // during a rolling restart. New connections are refused by the closed listener either way.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  if (config.trustProxy === true && config.env !== 'production') {
    logger.warn('TRUST_PROXY=true believes every X-Forwarded-For hop, so a client can pick the address its limits count; set a hop count or your proxies\' addresses');
  }

  const clock = options.clock ?? systemClock;
  const secrets = createSecrets(config.appSecret);
  const ownRedis = !options.redis && config.redisUrl ? connectRedis(config.redisUrl, logger) : undefined;
  const redis = options.redis ?? ownRedis;
  const deps: Deps = {
    db: options.db,
    config,
    clock,
    secrets,
    throttles: redis ? redisThrottleStore(redis, clock, config.redisKeyPrefix) : memoryThrottleStore(clock),
    redis,
    logger,
    mailQueued: options.mailQueued ?? (() => {}),
    exportQueued: options.exportQueued ?? (() => {}),
    paymentProvider:
      options.paymentProvider ?? createConfiguredProvider(config, { db: options.db, clock: options.clock ?? systemClock, secrets }),
    payoutProvider:
      options.payoutProvider === null
        ? undefined
        : (options.payoutProvider ?? createConfiguredPayoutProvider(config, { db: options.db, clock: options.clock ?? systemClock })),
  };
  const storage = options.storage ?? (await createStorage(config));
  const startup = options.startup ?? readyState();
  const routesRegistry: RegisteredRoute[] = [];

  app.addHook('onClose', async () => {
    if (ownRedis) await ownRedis.quit().catch(() => ownRedis.disconnect());
  });

  // With METRICS_PORT, /metrics is served by a listener of its own (server.ts), not on this app's port.
  const { metrics, observeResponse } = registerMetrics(app, { db: options.db, metricsToken: config.metricsToken, publicRoute: !config.metricsListener });
  registerAccessLog(app, [observeResponse]);
  // Redis configured but not connected: a limited route's failure is an outage (503), not our bug (500).
  registerErrorHandling(app, { dependencyDown: () => redis !== undefined && redis.status !== 'ready' });
  registerInputGuards(app);
  registerAnswerLanguage(app);
  const web = readWebBuild(config.webDistDir, config.contact);
  await registerSecurityHeaders(app, { inlineScripts: web?.inlineScripts });
  await registerOpenApi(app);
  registerStartupGate(app, startup);
  registerAccessControl(app, deps, routesRegistry);
  await registerRateLimits(app, { redis, keyPrefix: config.redisKeyPrefix });

  await app.register(
    async (api) => {
      await registerCompression(api);
      await api.register(healthRoutes({ ...deps, readiness: readinessChecks(deps, storage), startup }));
      await api.register(authRoutes(deps));
      await api.register(securityRoutes(deps));
      await api.register(userAdminRoutes(deps));
      await api.register(kycRoutes({ ...deps, storage, publicUsers }));
      await api.register(transactionRoutes(deps));
      await api.register(withdrawalRoutes(deps));
      await api.register(notificationRoutes(deps));
      await api.register(statementRoutes(deps));
      await api.register(payoutRoutes(deps));
      await api.register(dashboardRoutes(deps));
      await api.register(paymentRoutes({ ...deps, payoutNotification: handlePayoutNotification }));
      await api.register(paymentReviewRoutes(deps));
      await api.register(adminStatsRoutes(deps));
      await api.register(adminTransactionsRoutes(deps));
      await api.register(auditRoutes(deps));
      await api.register(mailAdminRoutes(deps));
      await api.register(projectRoutes({ ...deps, storage }));
      await api.register(privacyRoutes({ ...deps, storage }));
      api.get('/docs', {
        config: { access: 'public' },
        schema: { hide: true },
        handler: async () => app.swagger(),
      });
    },
    { prefix: '/api' },
  );

  // RFC 8058's one-click address is the mailed link itself (`/unsubscribe?token=…`), outside /api.
  await app.register(oneClickUnsubscribeRoutes({ ...deps, storage }));
  await registerWebApp(app, web);
  await app.ready();
  return Object.assign(app, { deps, routesRegistry, metrics }) as unknown as App;
}
