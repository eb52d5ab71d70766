/** The server's entry point: `npm start` runs its build, apps/api/dist/server.js. */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { buildApp, type App } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { connectDatabase, type DatabaseHandle } from './db/client';
import { startMailWorker } from './jobs/mail-outbox';
import { startPaymentReconciler } from './jobs/payment-reconciler';
import { startWithdrawalPayouts } from './jobs/withdrawal-payouts';
import { startPayoutScheduler } from './jobs/payout-scheduler';
import { systemClock } from './lib/clock';
import { createSecrets } from './lib/crypto';
import type { FileStorage } from './lib/storage';
import { createStorage } from './lib/storage-factory';
import { AdminBootstrapRefused, ensureAdmin } from './modules/auth';
import type { StartupState } from './modules/health';
import { createLogger } from './lib/logger';
import { startMetricsListener } from './plugins/metrics';
import { logTransport, MAIL_LOG_WARNING, MAIL_WITHHELD_WARNING, smtpTransport } from './modules/mail';
import { runMembershipEnds } from './modules/memberships';
import { seedSampleProjects } from './modules/projects';
import { mailDividendsPaid } from './modules/privacy';
import { startPrivacyJobs } from './jobs/privacy-jobs';

/** A stopped instance must be gone within this; what is still running then is cut off. */
const SHUTDOWN_DEADLINE_MS = 9_000;
/** How long requests in flight get to finish once SIGTERM arrives, before their connections are closed. */
const CLOSE_GRACE_MS = 5_000;
/** While the database does not answer at start, it is asked again after 0.5 s, 1 s, 2 s, then every 5 s. */
const RETRY_DELAYS_MS = [500, 1000, 2000, 5000];

type Job = { stop(): Promise<void> };

/**
 * Reads the configuration, listens at once, and starts the rest once the database answers: an instance whose
 * database is unreachable keeps listening and answers 503 on /api/health until it is back, instead of exiting
 * into a crash loop. On SIGTERM/SIGINT it stops accepting, answers what is in flight, closes keep-alive
 * connections, stops its jobs and exits 0.
 */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  const database = connectDatabase(config);
  const storage = await createStorage(config);
  const startup: StartupState = { ready: false, phase: 'waiting for the database' };
  const jobs: Job[] = [];
  let kickMail = () => {};
  let kickExports = () => {};

  const app = await buildApp({
    config,
    db: database.db,
    logger,
    storage,
    startup,
    mailQueued: () => kickMail(),
    exportQueued: () => kickExports(),
  });
  await app.listen({ port: config.port, host: config.host });
  const metricsListener = config.metricsListener && (await startMetricsListener(app.metrics, config.metricsListener));
  if (config.metricsListener) logger.info(`metrics at http://${config.metricsListener.host}:${config.metricsListener.port}/metrics`);

  let closing = false;
  const stopWaiting = new AbortController();
  const starting = startWhenDatabaseAnswers({ config, logger, database, storage, app, startup, jobs, signal: stopWaiting.signal })
    .then((kicks) => {
      if (!kicks) return;
      kickMail = kicks.mail;
      kickExports = kicks.exports;
    })
    .catch((error) => logger.error({ err: error }, 'start failed'));

  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    // The log's last lines are written before the process goes (pino would write them on exit too, synchronously).
    const exit = (code: number) => logger.flush(() => process.exit(code));
    try {
      stopWaiting.abort();
      metricsListener?.close();
      await closeHttp(app, startup);
      await starting;
      for (const job of jobs.reverse()) await job.stop();
      await database.close();
      logger.info('stopped');
      exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error while shutting down');
      exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Stops accepting connections and waits for the requests in flight. Fastify closes the connections idle at that
 * moment; a keep-alive connection whose request is still running becomes idle only after its answer, so every
 * answer sent while stopping says `Connection: close` (plugins/startup-gate.ts), and idle ones are swept until it is closed.
 */
async function closeHttp(app: App, startup: StartupState) {
  startup.stopping = true;
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  // A connection that never turns idle (a client that keeps a half-read exchange open) must not hold the
  // instance past its deadline: after the grace period every connection still open is closed.
  const grace = setTimeout(() => {
    app.log.warn('closing the connections still open after the grace period');
    app.server.closeAllConnections();
  }, CLOSE_GRACE_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(grace);
  }
}

/**
 * Waits for the database, then migrates (under an advisory lock, so instances may start together), ensures
 * the admin, seeds the sample projects and starts the jobs; returns the mail worker's kick. Gives up only when
 * the instance is stopping (`signal`).
 */
async function startWhenDatabaseAnswers(options: {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  storage: FileStorage;
  app: App;
  startup: StartupState;
  jobs: Job[];
  signal: AbortSignal;
}): Promise<{ mail: () => void; exports: () => void } | undefined> {
  const { config, logger, database, storage, app, startup, jobs, signal } = options;
  for (let attempt = 0; !signal.aborted; attempt += 1) {
    try {
      await database.db.execute(sql`select 1`);
      startup.phase = 'migrating';
      logger.info({ database: database.kind, dataDir: config.databaseUrl ? undefined : config.dataDir }, 'migrating database');
      await database.migrate();
      if (config.admin) {
        const adminDeps = { db: database.db, clock: systemClock, logger, secrets: createSecrets(config.appSecret), config };
        await ensureAdmin(adminDeps, config.admin, { promote: config.adminPromote });
      }
      await seedSampleProjects({ db: database.db, clock: systemClock, logger, config, storage });
      break;
    } catch (error) {
      // ADMIN_EMAIL names a member and no promotion was asked for: start refuses, it does not retry.
      if (error instanceof AdminBootstrapRefused) {
        console.error(error.message);
        await database.close().catch(() => {});
        process.exit(1);
      }
      startup.phase = 'waiting for the database';
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
      logger.error({ err: error, retryInMs: delay }, 'database not ready; answering 503 until it is');
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', wake);
          resolve();
        }, delay);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }
  if (signal.aborted) return undefined;

  const printBodies = config.env === 'development';
  if (!config.smtpUrl) logger.warn(printBodies ? MAIL_LOG_WARNING : MAIL_WITHHELD_WARNING);
  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport(logger, { printBodies });
  const mailWorker = startMailWorker(database.db, {
    secrets: createSecrets(config.appSecret),
    clock: systemClock,
    transport,
    from: config.mailFrom,
    logger,
  });
  jobs.push(mailWorker);
  jobs.push(
    startPayoutScheduler(database.db, {
      clock: systemClock,
      payoutTime: config.payoutTime,
      logger,
      // Then one "Dividends paid" mail per member the run paid, for those who opted in (issue 34).
      afterRun: async () => {
        await runMembershipEnds(app.deps);
        await mailDividendsPaid(app.deps);
      },
    }),
  );
  // Polls pending invoices: a lost notification (BTCPay forgets its retries when it restarts) still settles.
  jobs.push(startPaymentReconciler(app.deps));
  // Builds data exports left pending (a restart), deletes expired export files and KYC kept past its retention.
  const privacyJobs = startPrivacyJobs({ ...app.deps, storage });
  jobs.push(privacyJobs);
  // Sends approved withdrawals and follows them at the provider; expires unconfirmed ones.
  jobs.push(startWithdrawalPayouts(app.deps));

  startup.ready = true;
  startup.phase = 'ready';
  logger.info(
    `Terrafund is running at ${config.publicUrl} (mail: ${config.smtpUrl ? 'SMTP' : 'printed to this log'}, payments: ${config.payments.provider}, payouts: ${config.withdrawals.payoutProvider}, files: ${config.s3 ? `bucket ${config.s3.bucket}` : 'local disk'})`,
  );
  return { mail: mailWorker.kick, exports: privacyJobs.kick };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
