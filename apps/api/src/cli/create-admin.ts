import { parseArgs } from 'node:util';
import { ConfigError } from '../config';
import { checkCommand, runAdminCommand, UsageError } from './admin-commands';

const USAGE = 'usage: npm run admin:create -- --email <address> --password <password>';

/**
 * `npm run admin:create -- --email you@example.com --password '…'`: creates an admin in the database the
 * server uses. An address that already has an account is left alone: making a member admin is
 * `npm run admin -- --promote`, which replaces the password and ends the sessions.
 */
async function main() {
  const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
  const result = await runAdminCommand(checkCommand({ action: 'create', email: values.email, password: values.password }));
  (result.ok ? console.log : console.error)(result.message);
  process.exit(result.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
