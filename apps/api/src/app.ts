import path from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino, { type Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Deps } from './deps';
import { systemClock, type Clock } from './lib/clock';
import { createSecrets } from './lib/crypto';
import { createRateLimiter } from './lib/rate-limiter';
import { localDiskStorage, type FileStorage } from './lib/storage';
import { authRoutes } from './modules/auth/auth.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { healthRoutes } from './modules/health/health.routes';
import { kycRoutes } from './modules/kyc/kyc.routes';
import { createConfiguredProvider } from './modules/payments/configured-provider';
import { paymentReviewRoutes } from './modules/payments/payment-review.routes';
import type { PaymentProvider } from './modules/payments/provider';
import { paymentRoutes } from './modules/payments/payments.routes';
import { payoutRoutes } from './modules/payouts/payouts.routes';
import { projectRoutes } from './modules/projects/projects.routes';
import { transactionRoutes } from './modules/transactions/transactions.routes';
import { userAdminRoutes } from './modules/users/users.routes';
import { registerAccessControl, type RegisteredRoute } from './plugins/access';
import { registerAccessLog } from './plugins/access-log';
import { registerCompression } from './plugins/compress';
import { frameworkErrorHandler, registerErrorHandling } from './plugins/errors';
import { registerInputGuards } from './plugins/input';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { registerWebApp } from './plugins/web';

export type BuildOptions = {
  config: Config;
  db: Database;
  clock?: Clock;
  logger?: Logger;
  /** Called after a transaction committed mail; the server wires it to the outbox worker. */
  mailQueued?: () => void;
  /** Private file storage; defaults to local disk under DATA_DIR/uploads. */
  storage?: FileStorage;
  /** The payment provider; defaults to the one PAYMENT_PROVIDER configures. */
  paymentProvider?: PaymentProvider;
};

export type App = FastifyInstance & { deps: Deps; routesRegistry: RegisteredRoute[] };

/** Largest JSON body any route accepts; uploads have their own limits. */
const JSON_BODY_LIMIT = 64 * 1024;

/** Registers every plugin and module; never listens (conventions: fastify/demo app.ts). */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  const logger = options.logger ?? pino({ level: config.logLevel });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: frameworkErrorHandler,
    // One line per request, written by plugins/access-log.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const secrets = createSecrets(config.appSecret);
  const deps: Deps = {
    db: options.db,
    config,
    clock: options.clock ?? systemClock,
    secrets,
    limiter: createRateLimiter(options.clock ?? systemClock),
    logger,
    mailQueued: options.mailQueued ?? (() => {}),
    paymentProvider:
      options.paymentProvider ?? createConfiguredProvider(config, { db: options.db, clock: options.clock ?? systemClock, secrets }),
  };
  const storage = options.storage ?? localDiskStorage(path.join(config.dataDir, 'uploads'));
  const routesRegistry: RegisteredRoute[] = [];

  registerAccessLog(app);
  registerErrorHandling(app);
  registerInputGuards(app);
  await registerSecurityHeaders(app);
  await registerOpenApi(app);
  registerAccessControl(app, deps, routesRegistry);

  await app.register(
    async (api) => {
      await registerCompression(api);
      await api.register(healthRoutes(deps));
      await api.register(authRoutes(deps));
      await api.register(userAdminRoutes(deps));
      await api.register(kycRoutes({ ...deps, storage }));
      await api.register(transactionRoutes(deps));
      await api.register(payoutRoutes(deps));
      await api.register(dashboardRoutes(deps));
      await api.register(paymentRoutes(deps));
      await api.register(paymentReviewRoutes(deps));
      await api.register(adminRoutes(deps));
      await api.register(projectRoutes({ ...deps, storage }));
      api.get('/docs', {
        config: { access: 'public' },
        schema: { hide: true },
        handler: async () => app.swagger(),
      });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.webDistDir);
  await app.ready();
  return Object.assign(app, { deps, routesRegistry }) as unknown as App;
}
