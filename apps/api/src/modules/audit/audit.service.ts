import { desc, eq, and, inArray } from 'drizzle-orm';
import type { AuditEntry } from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import type { Deps } from '../../deps';

/**
 * Writes one admin decision, in the caller's transaction so the record exists exactly when the change does.
 * No actor: the operator, from the command line or the server's start.
 */
export async function recordAudit(
  tx: Executor,
  deps: Pick<Deps, 'clock'>,
  entry: { actorId: string | null; action: string; targetType: 'user'; targetId: string; before: unknown; after: unknown },
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
