import { parseArgs } from 'node:util';
import { runFromCommandLine } from './admin-commands';

/**
 * `npm run admin:create -- --email you@example.com --password '…'`: creates an admin in the database the
 * server uses. An address that already has an account is left alone: making a member admin is
 * `npm run admin -- --promote`, which replaces the password and ends the sessions.
 */
runFromCommandLine('usage: npm run admin:create -- --email <address> --password <password>', () => {
  const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
  return { action: 'create', email: values.email, password: values.password };
});
