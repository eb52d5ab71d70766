import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { messages, type AuditEntry, type AuditRow, type auditQuery } from '@terrafund/contracts';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { csvLine } from '../../lib/csv';
import { afterKey, encodeCursor, keyTimestamp, readCursor } from '../../lib/cursor';

/**
 * Writes one admin decision, in the caller's transaction so the record exists exactly when the change does.
 * No actor: the operator, from the command line or the server's start.
 */
export async function recordAudit(
  tx: Executor,
  deps: Pick<Deps, 'clock'>,
  entry: { actorId: string | null; action: string; targetType: 'user' | 'session'; targetId: string; before: unknown; after: unknown },
) {
  await tx.insert(auditLog).values({ ...entry, createdAt: deps.clock.now() });
}

export async function auditTrail(deps: Pick<Deps, 'db'>, targetType: 'user', targetId: string, limit = 50): Promise<AuditEntry[]> {
  const rows = await deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, targetId)))
    .orderBy(desc(auditLog.createdAt))
    .limit(limit);
  const actorIds = [...new Set(rows.map((r) => r.actorId).filter((id): id is string => id !== null))];
  const actors = actorIds.length
    ? await deps.db
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(users)
        .where(inArray(users.id, actorIds))
    : [];
  const byId = new Map(actors.map((a) => [a.id, a]));
  return rows.map((r) => {
    const actor = r.actorId ? byId.get(r.actorId) : undefined;
    return {
      _id: r.id,
      action: r.action,
      actor: actor ? { _id: actor.id, firstName: actor.firstName, lastName: actor.lastName, email: actor.email } : null,
      targetType: r.targetType,
      targetId: r.targetId,
      before: r.before,
      after: r.after,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** Spelled as audit_log_created_idx is built, so a page is an index seek (see lib/cursor.ts). */
const listOrder = [sql`${auditLog.createdAt} desc nulls last`, sql`${auditLog.id} desc nulls last`] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

type AuditPage = { rows: AuditRow[]; nextCursor?: string };

/**
 * GET /api/admin/audit: newest first, keyset-paged with the admin transactions list's cursor (a forged one is
 * a 400). `actor` is an e-mail, `action` an exact name, `from`/`to` UTC days (both included); they combine.
 */
export async function listAudit(deps: Pick<Deps, 'db'>, query: z.output<typeof auditQuery>): Promise<AuditPage> {
  const start = readCursor(query.cursor, messages.admin.cursorInvalid);
  const filters: (SQL | undefined)[] = [
    query.actor ? eq(users.email, query.actor) : undefined,
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.from ? gte(auditLog.createdAt, new Date(`${query.from}T00:00:00.000Z`)) : undefined,
    query.to ? lt(auditLog.createdAt, new Date(new Date(`${query.to}T00:00:00.000Z`).getTime() + DAY_MS)) : undefined,
    afterKey(auditLog.createdAt, auditLog.id, start),
  ];
  // One row more than asked tells whether another page exists.
  const found = await deps.db
    .select({ entry: auditLog, actorEmail: users.email, key: keyTimestamp(auditLog.createdAt) })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(...filters))
    .orderBy(...listOrder)
    .limit(query.limit + 1);
  const page = found.slice(0, query.limit);
  const last = page.at(-1);
  return {
    rows: page.map(({ entry, actorEmail }) => ({
      id: entry.id,
      at: entry.createdAt.toISOString(),
      actorEmail,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: { before: entry.before ?? null, after: entry.after ?? null },
    })),
    ...(found.length > query.limit && last ? { nextCursor: encodeCursor({ createdAt: last.key, id: last.entry.id }) } : {}),
  };
}

const AUDIT_CSV_HEADER = ['At', 'Actor', 'Action', 'Target type', 'Target id', 'Details'];

/** The same rows as the JSON page, as CSV lines (header first). */
export const auditCsv = (rows: AuditRow[]) =>
  [AUDIT_CSV_HEADER, ...rows.map((r) => [r.at, r.actorEmail ?? '', r.action, r.targetType, r.targetId, r.details])]
    .map(csvLine)
    .join('');
