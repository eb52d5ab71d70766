import pino from 'pino';
import { EMAIL_PATTERN, PASSWORD_MIN_LENGTH } from '@terrafund/contracts';
import { ConfigError, loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { systemClock } from '../lib/clock';
import { createSecrets } from '../lib/crypto';
import { accountRole, createAdminIfAbsent, promoteToAdmin, type AdminDeps } from '../modules/auth';
import { normalizeEmail } from '../modules/users';
import { resetTwoFactor } from '../modules/auth';
import { createStorage } from '../lib/storage-factory';
import { runPrivacyCommand } from './privacy-commands';

export class UsageError extends Error {}

/** The operator's admin commands; each answers one line, and exits non-zero when it changed nothing asked. */
type AdminCommand =
  | { action: 'create' | 'promote'; email: string; password: string }
  | { action: 'reset-2fa'; email: string }
  | { action: 'close'; email: string }
  | { action: 'export'; email: string; out?: string };
type CommandLine = { action: AdminCommand['action']; email?: string; password?: string; out?: string };

export function checkCommand(command: CommandLine): AdminCommand {
  const email = command.email?.trim() ?? '';
  const password = command.password ?? '';
  if (!EMAIL_PATTERN.test(email)) throw new UsageError('an e-mail address is required');
  if (command.action === 'reset-2fa') return { action: 'reset-2fa', email: normalizeEmail(email) };
  if (command.action === 'close') return { action: 'close', email: normalizeEmail(email) };
  if (command.action === 'export') return { action: 'export', email: normalizeEmail(email), out: command.out };
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new UsageError(`a password of at least ${PASSWORD_MIN_LENGTH} characters is required (ADMIN_PASSWORD or --password)`);
  }
  return { action: command.action, email: normalizeEmail(email), password };
}

/**
 * Runs against the database the server uses (DATABASE_URL, or the embedded one under DATA_DIR: stop the
 * server first, PGlite allows one process at a time). ADMIN_EMAIL and friends are the server's start-up
 * bootstrap, not this command's, so they are left out of the configuration it reads.
 */
export async function runAdminCommand(command: AdminCommand, env: NodeJS.ProcessEnv = process.env): Promise<{ ok: boolean; message: string }> {
  const ownEnv = { ...env };
  for (const name of ['ADMIN_EMAIL', 'ADMIN_PASSWORD', 'ADMIN_PROMOTE']) delete ownEnv[name];
  const config = loadConfig(ownEnv);
  const database = connectDatabase(config);
  const deps: AdminDeps = {
    db: database.db,
    clock: systemClock,
    secrets: createSecrets(config.appSecret),
    config,
    logger: pino({ level: 'warn' }),
  };
  try {
    await database.migrate();
    if (command.action === 'close' || command.action === 'export') {
      return await runPrivacyCommand({ ...deps, storage: await createStorage(config), mailQueued: () => {} }, command);
    }
    if (command.action === 'reset-2fa') {
      const outcome = await resetTwoFactor(deps, command.email);
      if (outcome === 'reset') {
        return {
          ok: true,
          message: `Two-factor sign-in of ${command.email} reset: secret and recovery codes removed, every session ended, owner mailed (audit: 2fa.reset).`,
        };
      }
      if (outcome === 'not-enabled') return { ok: false, message: `${command.email} has no two-factor sign-in; nothing changed.` };
      return { ok: false, message: `No account has the address ${command.email}; nothing changed.` };
    }
    if (command.action === 'create') {
      if (await createAdminIfAbsent(deps, command)) return { ok: true, message: `Admin created: ${command.email}` };
      if ((await accountRole(deps, command.email)) === 'admin') {
        return { ok: true, message: `${command.email} is already an admin; nothing changed.` };
      }
      return { ok: false, message: `${command.email} already has an account; nothing changed. To make it admin: npm run admin -- --promote ${command.email}` };
    }
    const outcome = await promoteToAdmin(deps, command);
    if (outcome === 'promoted') {
      return { ok: true, message: `Promoted ${command.email} to admin: password replaced, every session ended, owner mailed.` };
    }
    if (outcome === 'already-admin') return { ok: true, message: `${command.email} is already an admin; nothing changed.` };
    return { ok: false, message: `No account has the address ${command.email}. To create an admin: npm run admin:create -- --email ${command.email} --password …` };
  } finally {
    await database.close();
  }
}

/**
 * The command line around one admin command (`npm run admin`, `npm run admin:create`): its one line on stdout,
 * or on stderr when it changed nothing asked (exit 1); a usage mistake prints `usage` and exits 2.
 */
export function runFromCommandLine(usage: string, readCommand: () => CommandLine) {
  const main = async () => {
    const result = await runAdminCommand(checkCommand(readCommand()));
    (result.ok ? console.log : console.error)(result.message);
    process.exit(result.ok ? 0 : 1);
  };
  main().catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${usage}`);
      process.exit(2);
    }
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
