import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { AppError } from '../lib/app-error';
import { recordAudit } from '../modules/audit';
import { buildExportZip, closeAccount, type PrivacyDeps } from '../modules/privacy';

/**
 * The operator's answer to a privacy request that came by mail (docs/operations.md, "Answering a privacy request by
 * mail"), with the same code as the member's own buttons: `--export <email>` writes the member's ZIP to a file
 * (`--out FILE`, or terrafund-data-<date>-<id>.zip in the current folder) and audits `data.exported`;
 * `--close <email>` closes the account under the same refusals (the reason is printed) and audits `account.closed`.
 * The requester's identity is checked out of band first: neither asks for the member's password.
 */
export async function runPrivacyCommand(
  deps: PrivacyDeps,
  command: { action: 'close'; email: string } | { action: 'export'; email: string; out?: string },
): Promise<{ ok: boolean; message: string }> {
  const [member] = await deps.db.select().from(users).where(eq(users.email, command.email)).limit(1);
  if (!member || member.deletedAt) return { ok: false, message: `No account has the address ${command.email}; nothing changed.` };
  if (command.action === 'close') {
    try {
      await closeAccount(deps, member, { actorId: null });
    } catch (error) {
      if (error instanceof AppError) return { ok: false, message: `${command.email} was not closed: ${error.message}` };
      throw error;
    }
    return {
      ok: true,
      message: `Closed ${command.email}: sessions ended, personal data erased (now closed-${member.id}@invalid), owner mailed (audit: account.closed). The mail goes when the server next runs its mail worker.`,
    };
  }
  const zip = await buildExportZip(deps, member);
  const file = path.resolve(command.out ?? `terrafund-data-${deps.clock.now().toISOString().slice(0, 10)}-${member.id}.zip`);
  await writeFile(file, zip, { mode: 0o600, flag: 'wx' });
  await recordAudit(deps.db, deps, {
    actorId: null,
    action: 'data.exported',
    targetType: 'user',
    targetId: member.id,
    before: null,
    after: { by: 'operator (npm run admin -- --export)', sizeBytes: zip.length },
  });
  return { ok: true, message: `Wrote the data of ${command.email} to ${file} (${zip.length} bytes; audit: data.exported). Send it to the member over a safe channel, then delete it.` };
}
