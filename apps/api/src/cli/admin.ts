import { parseArgs } from 'node:util';
import { runFromCommandLine, UsageError } from './admin-commands';

/**
 * `npm run admin -- --promote you@example.com`: makes an existing account admin with the password from
 * ADMIN_PASSWORD (or --password), ending all of its sessions and mailing its owner. The explicit step the
 * server's start refuses to take by itself (docs/decisions.md, Identity).
 */
runFromCommandLine('usage: npm run admin -- --promote <email> [--password <password>]   (or ADMIN_PASSWORD in the environment)', () => {
  const { values } = parseArgs({ options: { promote: { type: 'string' }, password: { type: 'string' } } });
  if (values.promote === undefined) throw new UsageError('--promote <email> is required');
  return { action: 'promote', email: values.promote, password: values.password ?? process.env.ADMIN_PASSWORD };
});
