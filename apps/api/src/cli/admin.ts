import { parseArgs } from 'node:util';
import { ConfigError } from '../config';
import { checkCommand, runAdminCommand, UsageError } from './admin-commands';

const USAGE = 'usage: npm run admin -- --promote <email> [--password <password>]   (or ADMIN_PASSWORD in the environment)';

/**
 * `npm run admin -- --promote you@example.com`: makes an existing account admin with the password from
 * ADMIN_PASSWORD (or --password), ending all of its sessions and mailing its owner. The explicit step the
 * server's start refuses to take by itself (docs/decisions.md, Identity).
 */
async function main() {
  const { values } = parseArgs({ options: { promote: { type: 'string' }, password: { type: 'string' } } });
  if (values.promote === undefined) throw new UsageError('--promote <email> is required');
  const command = checkCommand({ action: 'promote', email: values.promote, password: values.password ?? process.env.ADMIN_PASSWORD });
  const result = await runAdminCommand(command);
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
