import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { connectDatabase } from './db/client';
import { startMailWorker } from './jobs/mail-outbox';
import { startPaymentReconciler } from './jobs/payment-reconciler';
import { startPayoutScheduler } from './jobs/payout-scheduler';
import { systemClock } from './lib/clock';
import { createSecrets } from './lib/crypto';
import { AdminBootstrapRefused, ensureAdmin } from './modules/auth/admin-bootstrap';
import { logTransport, smtpTransport } from './modules/mail/mail.transport';
import { seedSampleProjects } from './modules/projects/seed';

/** Reads the configuration, migrates, builds, listens, and closes gracefully on SIGTERM/SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino({ level: config.logLevel });
  const database = connectDatabase(config);
  logger.info({ database: database.kind, dataDir: config.databaseUrl ? undefined : config.dataDir }, 'migrating database');
  await database.migrate();

  if (config.admin) {
    const adminDeps = { db: database.db, clock: systemClock, logger, secrets: createSecrets(config.appSecret), config };
    try {
      await ensureAdmin(adminDeps, config.admin, { promote: config.adminPromote });
    } catch (error) {
      if (!(error instanceof AdminBootstrapRefused)) throw error;
      console.error(error.message);
      await database.close();
      process.exit(1);
    }
  }
  await seedSampleProjects({ db: database.db, clock: systemClock, logger, config });

  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport(logger);
  const mailWorker = startMailWorker(database.db, {
    secrets: createSecrets(config.appSecret),
    clock: systemClock,
    transport,
    from: config.mailFrom,
    logger,
  });

  const payouts = startPayoutScheduler(database.db, { clock: systemClock, payoutTime: config.payoutTime, logger });

  const app = await buildApp({ config, db: database.db, logger, mailQueued: mailWorker.kick });
  // Polls pending invoices: a lost notification (BTCPay forgets its retries when it restarts) still settles.
  const reconciler = startPaymentReconciler(app.deps);
  await app.listen({ port: config.port, host: config.host });
  logger.info(
    `Terrafund is running at ${config.publicUrl} (mail: ${config.smtpUrl ? 'SMTP' : 'printed to this log'}, payments: ${config.payments.provider})`,
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await reconciler.stop();
      await payouts.stop();
      await mailWorker.stop();
      await database.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
