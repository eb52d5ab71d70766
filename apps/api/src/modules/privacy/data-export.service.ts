import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import { strToU8, zipSync, type Zippable } from 'fflate';
import {
  DATA_EXPORT_INTERVAL_HOURS,
  DATA_EXPORT_TTL_DAYS,
  messages,
  UUID_PATTERN,
  type DataExport,
} from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { leaseDue } from '../../db/lease';
import { auditLog, dataExports, kycDocuments, kycProfiles, notifications, sessions, users, type DataExportRow, type UserRow } from '../../db/schema';
import { lockMember } from '../../db/member-lock';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/storage';
import { recordAudit } from '../audit';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';
import { statementLines } from '../transactions';
import { publicUser } from '../users';
import { withdrawalAddressesOf } from '../withdrawals';

/**
 * "Download my data" (issue 34). The request commits a pending row; the export worker (jobs/privacy-jobs.ts, and a
 * background task right after the request, so it is ready in seconds) leases it like the mail outbox leases mail,
 * builds the ZIP, keeps it in the private file storage and tells the member (bell and mail). The ZIP can be
 * downloaded by its owner until `expires_at`, when the worker deletes the file. The row stays: one export a day
 * counts rows.
 */
export type ExportDeps = Deps & { storage: FileStorage };
/** What building, closing and purging need: the command line (cli/admin.ts) gives just this. */
export type PrivacyDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config' | 'mailQueued'> & {
  storage: FileStorage;
  logger: Pick<Deps['logger'], 'info' | 'warn'>;
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LEASE_MS = 5 * 60_000;
const BATCH = 5;
export const EXPORT_STORAGE_PREFIX = 'data-exports';

const toDto = (row: DataExportRow): DataExport => ({
  id: row.id,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/**
 * POST /api/users/data-export, after the step-up: a pending export, unless one was asked for in the last
 * DATA_EXPORT_INTERVAL_HOURS (429 with the seconds until the next one may be asked for). The member's row is locked
 * while counting, so two requests at once make one export.
 */
export async function requestDataExport(deps: ExportDeps, user: UserRow): Promise<DataExport> {
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    await lockMember(tx, user.id);
    const [last] = await tx
      .select({ createdAt: dataExports.createdAt })
      .from(dataExports)
      .where(and(eq(dataExports.userId, user.id), gt(dataExports.createdAt, new Date(now.getTime() - DATA_EXPORT_INTERVAL_HOURS * HOUR_MS))))
      .orderBy(desc(dataExports.createdAt))
      .limit(1);
    if (last) {
      const retryAfter = Math.max(1, Math.ceil((last.createdAt.getTime() + DATA_EXPORT_INTERVAL_HOURS * HOUR_MS - now.getTime()) / 1000));
      throw new AppError('RATE_LIMITED', messages.privacy.exportOncePerDay, { retryAfter });
    }
    const [inserted] = await tx
      .insert(dataExports)
      .values({ userId: user.id, createdAt: now, nextAttemptAt: now, expiresAt: new Date(now.getTime() + DATA_EXPORT_TTL_DAYS * DAY_MS) })
      .returning();
    return inserted!;
  });
  // Committed: the server's privacy job builds it at once, and finds it again should this process stop first.
  deps.exportQueued();
  return toDto(row);
}

/** GET /api/users/data-export: the member's exports whose link still works, newest first. */
export async function listDataExports(deps: Pick<Deps, 'db' | 'clock'>, userId: string): Promise<DataExport[]> {
  const rows = await deps.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), gt(dataExports.expiresAt, deps.clock.now()), isNull(dataExports.purgedAt)))
    .orderBy(desc(dataExports.createdAt));
  return rows.map(toDto);
}

/**
 * GET /api/users/data-export/{id}/download: the ZIP, for its owner only (another member's export is 404, as if it
 * did not exist); a pending one is 409, an expired one 410. Each download is audited (`data.exported`).
 */
export async function downloadDataExport(deps: PrivacyDeps, user: UserRow, id: string): Promise<{ bytes: Buffer; fileName: string }> {
  if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', messages.privacy.exportNotFound);
  const [row] = await deps.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, id), eq(dataExports.userId, user.id)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', messages.privacy.exportNotFound);
  if (row.purgedAt || row.expiresAt <= deps.clock.now()) throw new AppError('GONE', messages.privacy.exportExpired);
  if (row.status !== 'ready' || !row.storageKey) throw new AppError('CONFLICT', messages.privacy.exportNotReady);
  const bytes = await deps.storage.get(row.storageKey);
  await recordAudit(deps.db, deps, {
    actorId: user.id,
    action: 'data.exported',
    targetType: 'user',
    targetId: user.id,
    before: null,
    after: { exportId: row.id, sizeBytes: bytes.length },
  });
  return { bytes, fileName: exportFileName(row) };
}

export const exportFileName = (row: Pick<DataExportRow, 'createdAt'>) => `terrafund-data-${row.createdAt.toISOString().slice(0, 10)}.zip`;

/**
 * Builds the pending exports that are due: leased with FOR UPDATE SKIP LOCKED (two servers never build one twice;
 * a lease that ran out, a killed server, is taken again), built, stored, then marked ready with the bell and the
 * mail in one transaction. A failure is tried again after a backoff. Answers how many became ready.
 */
export async function processDataExports(deps: PrivacyDeps): Promise<number> {
  const now = deps.clock.now();
  const leased = await deps.db.transaction((tx) =>
    leaseDue(tx, dataExports, { now, until: new Date(now.getTime() + LEASE_MS), limit: BATCH }),
  );

  let ready = 0;
  for (const row of leased) {
    try {
      const [member] = await deps.db.select().from(users).where(eq(users.id, row.userId)).limit(1);
      if (!member || member.closedAt) {
        await deps.db.delete(dataExports).where(eq(dataExports.id, row.id));
        continue;
      }
      const zip = await buildExportZip(deps, member);
      const key = await deps.storage.put(EXPORT_STORAGE_PREFIX, zip);
      const done = await deps.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(dataExports)
          .set({ status: 'ready', storageKey: key, sizeBytes: zip.length, readyAt: deps.clock.now(), lockedUntil: null, lastError: null })
          .where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'pending')))
          .returning({ id: dataExports.id });
        if (!updated) return false;
        await notify(tx, deps, member.id, 'data.export_ready', undefined, `data.export_ready:${row.id}`);
        await enqueueMail(tx, deps, member.email, 'dataExportReady', { firstName: member.firstName, privacyUrl: `${deps.config.publicUrl}/profile#privacy` });
        return true;
      });
      if (done) {
        ready += 1;
        deps.mailQueued();
      } else {
        await deps.storage.delete(key);
      }
    } catch (error) {
      deps.logger.warn({ err: error, exportId: row.id }, 'data export failed, will retry');
      const backoff = Math.min(30_000 * 2 ** Math.max(0, row.attempts - 1), HOUR_MS);
      await deps.db
        .update(dataExports)
        .set({
          lockedUntil: null,
          nextAttemptAt: new Date(deps.clock.now().getTime() + backoff),
          lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        })
        .where(eq(dataExports.id, row.id));
    }
  }
  return ready;
}

/** Deletes the files of exports whose link has expired (the row stays, marked purged). Answers how many. */
export async function purgeExpiredExports(deps: PrivacyDeps): Promise<number> {
  const now = deps.clock.now();
  const expired = await deps.db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(and(isNull(dataExports.purgedAt), lte(dataExports.expiresAt, now)))
    .limit(100);
  for (const row of expired) {
    if (row.storageKey) await deps.storage.delete(row.storageKey);
    await deps.db.update(dataExports).set({ purgedAt: now, storageKey: null }).where(eq(dataExports.id, row.id));
  }
  return expired.length;
}

/** Deletes every export of a member, files included (closing the account). */
export async function deleteExportsOf(tx: Executor, userId: string): Promise<string[]> {
  const rows = await tx.delete(dataExports).where(eq(dataExports.userId, userId)).returning({ storageKey: dataExports.storageKey });
  return rows.map((r) => r.storageKey).filter((k): k is string => k !== null);
}

// ---------------------------------------------------------------------------------------------------------------
// What the ZIP holds

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Keys of an audit record's details that are an admin's own words, never the member's data. */
const PRIVATE_DETAIL_KEYS = new Set(['note', 'notes', 'adminNote', 'internalNote']);

function withoutPrivateNotes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPrivateNotes);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !PRIVATE_DETAIL_KEYS.has(key))
        .map(([key, item]) => [key, withoutPrivateNotes(item)]),
    );
  }
  return value;
}

const DOCUMENT_EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

/**
 * The member's data as a ZIP (fflate): profile.json (the user and their KYC answers), transactions.csv (the
 * statement's columns, every transaction), notifications.json, sessions.json, audit.json (decisions and security
 * events about them; an admin is "an administrator"), withdrawal-addresses.json (the address book), and
 * the KYC documents as stored. Never a password hash, a 2FA secret, a token hash, an admin's note or another
 * member's data.
 */
export async function buildExportZip(deps: Pick<PrivacyDeps, 'db' | 'clock' | 'config' | 'storage'>, member: UserRow): Promise<Buffer> {
  const files: Zippable = {};
  const user = await publicUser(deps, member);
  const { kyc, ...account } = user;
  const [profile] = await deps.db.select().from(kycProfiles).where(eq(kycProfiles.userId, member.id)).limit(1);
  const documents = profile?.documentIds.length
    ? await deps.db.select().from(kycDocuments).where(inArray(kycDocuments.id, profile.documentIds))
    : [];
  const documentFiles = documents.map((d) => ({ row: d, name: `kyc-documents/${d.documentType}-${d.id}.${DOCUMENT_EXTENSIONS[d.contentType] ?? 'bin'}` }));

  files['profile.json'] = json({
    exportedAt: deps.clock.now().toISOString(),
    user: account,
    kyc: profile
      ? {
          status: member.kycStatus,
          firstName: profile.firstName,
          lastName: profile.lastName,
          dateOfBirth: profile.dateOfBirth,
          nationality: profile.nationality,
          address: profile.address,
          city: profile.city,
          state: profile.state,
          postalCode: profile.postalCode,
          country: profile.country,
          idType: profile.idType,
          idNumber: profile.idNumber,
          submittedAt: iso(profile.submittedAt),
          reviewedAt: iso(profile.reviewedAt),
          rejectionReason: profile.rejectionReason,
          documents: documentFiles.map((f) => ({ type: f.row.documentType, file: f.name, uploadedAt: iso(f.row.createdAt) })),
        }
      : (kyc ?? null),
  });

  let csv = '';
  for await (const chunk of statementLines(deps, member.id, { from: '1970-01-01', to: deps.clock.now().toISOString().slice(0, 10) })) csv += chunk;
  files['transactions.csv'] = strToU8(csv);

  const bell = await deps.db.select().from(notifications).where(eq(notifications.userId, member.id)).orderBy(desc(notifications.createdAt));
  files['notifications.json'] = json(
    bell.map((n) => ({ type: n.type, title: n.title, body: n.body, createdAt: iso(n.createdAt), readAt: iso(n.readAt) })),
  );

  const ownSessions = await deps.db.select().from(sessions).where(eq(sessions.userId, member.id)).orderBy(desc(sessions.createdAt));
  files['sessions.json'] = json(
    ownSessions.map((s) => ({
      id: s.id,
      createdAt: iso(s.createdAt),
      lastSeenAt: iso(s.lastSeenAt),
      expiresAt: iso(s.expiresAt),
      endedAt: iso(s.revokedAt),
      userAgent: s.userAgent,
      ipAddress: s.ipAddress,
      rememberMe: s.remember,
    })),
  );

  const sessionIds = ownSessions.map((s) => s.id);
  const events = await deps.db
    .select({ action: auditLog.action, actorId: auditLog.actorId, actorRole: users.role, before: auditLog.before, after: auditLog.after, createdAt: auditLog.createdAt })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(
      or(
        and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, member.id)),
        sessionIds.length ? and(eq(auditLog.targetType, 'session'), inArray(auditLog.targetId, sessionIds)) : undefined,
      ),
    )
    .orderBy(asc(auditLog.createdAt));
  files['audit.json'] = json(
    events.map((e) => ({
      action: e.action,
      at: iso(e.createdAt),
      by: e.actorId === null ? 'the operator' : e.actorId === member.id ? 'you' : e.actorRole === 'admin' ? 'an administrator' : 'another account',
      before: withoutPrivateNotes(e.before),
      after: withoutPrivateNotes(e.after),
    })),
  );

  const addresses = await withdrawalAddressesOf(deps.db, member.id);
  files['withdrawal-addresses.json'] = json(addresses);

  for (const file of documentFiles) {
    files[file.name] = new Uint8Array(await deps.storage.get(file.row.storageKey));
  }
  return Buffer.from(zipSync(files, { level: 6 }));
}

/** Export rows with a file still in the bucket (for tests and the CLI). */
export const storedExports = (db: Executor, userId: string) =>
  db.select().from(dataExports).where(and(eq(dataExports.userId, userId), isNotNull(dataExports.storageKey)));
