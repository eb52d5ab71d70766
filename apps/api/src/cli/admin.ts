import { parseArgs } from 'node:util';
import { runFromCommandLine, UsageError } from './admin-commands';

/**
 * `npm run admin -- --promote you@example.com`: makes an existing account admin with the password from
 * ADMIN_PASSWORD (or --password), ending all of its sessions and mailing its owner. The explicit step the
 * server's start refuses to take by itself (docs/decisions.md, Identity).
 *
 * `npm run admin -- --reset-2fa member@example.com`: turns a member's two-factor sign-in off (secret and
 * recovery codes removed, every session ended, audited, owner mailed), for a member who lost both their
 * authenticator and their recovery codes and whose identity was checked out of band (README, Two-factor).
 *
 * `npm run admin -- --export member@example.com [--out file.zip]` and `--close member@example.com`: a privacy request
 * that came by mail, answered with the member's own export and closing (cli/privacy-commands.ts, docs/operations.md).
 */
runFromCommandLine(
  'usage: npm run admin -- --promote <email> [--password <password>]   (or ADMIN_PASSWORD in the environment)\n' +
    '       npm run admin -- --reset-2fa <email>\n' +
    '       npm run admin -- --export <email> [--out <file.zip>]\n' +
    '       npm run admin -- --close <email>',
  () => {
    const { values } = parseArgs({
      options: {
        promote: { type: 'string' },
        password: { type: 'string' },
        'reset-2fa': { type: 'string' },
        export: { type: 'string' },
        out: { type: 'string' },
        close: { type: 'string' },
      },
    });
    const reset = values['reset-2fa'];
    const given = [values.promote, reset, values.export, values.close].filter((v) => v !== undefined);
    if (given.length > 1) throw new UsageError('give one of --promote, --reset-2fa, --export or --close');
    if (reset !== undefined) return { action: 'reset-2fa', email: reset };
    if (values.export !== undefined) return { action: 'export', email: values.export, out: values.out };
    if (values.close !== undefined) return { action: 'close', email: values.close };
    if (values.promote === undefined) throw new UsageError('--promote, --reset-2fa, --export or --close <email> is required');
    return { action: 'promote', email: values.promote, password: values.password ?? process.env.ADMIN_PASSWORD };
  },
);
