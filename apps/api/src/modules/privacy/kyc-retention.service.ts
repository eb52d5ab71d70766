import { and, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import { kycDocuments, kycProfiles, users } from '../../db/schema';
import { recordAudit } from '../audit';
import type { PrivacyDeps } from './data-export.service';

const DAY_MS = 86_400_000;
const BATCH = 50;

/**
 * The KYC record and documents of a closed account are kept KYC_RETENTION_DAYS after closing (anti-money-laundering
 * rules), then deleted from the database and the bucket, audited as `kyc.purged` (no actor: the platform's job).
 * Run by jobs/privacy-jobs.ts; safe to run often and on several servers (each member's rows are locked while
 * purged, and a purged member has nothing left to find). Answers how many members' records were deleted.
 */
export async function purgeExpiredKyc(deps: PrivacyDeps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - deps.config.kycRetentionDays * DAY_MS);
  const due = await deps.db
    .selectDistinct({ id: users.id })
    .from(users)
    .where(
      and(
        isNotNull(users.closedAt),
        lte(users.closedAt, cutoff),
        or(
          sql`exists (select 1 from ${kycProfiles} where ${kycProfiles.userId} = ${users.id})`,
          sql`exists (select 1 from ${kycDocuments} where ${kycDocuments.userId} = ${users.id})`,
        ),
      ),
    )
    .limit(BATCH);
  let purged = 0;
  for (const { id } of due) {
    const keys = await deps.db.transaction(async (tx) => {
      const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('no key update', { skipLocked: true });
      if (!locked) return null;
      const profiles = await tx.delete(kycProfiles).where(eq(kycProfiles.userId, id)).returning({ userId: kycProfiles.userId });
      const documents = await tx.delete(kycDocuments).where(eq(kycDocuments.userId, id)).returning({ storageKey: kycDocuments.storageKey });
      if (profiles.length === 0 && documents.length === 0) return null;
      await recordAudit(tx, deps, {
        actorId: null,
        action: 'kyc.purged',
        targetType: 'user',
        targetId: id,
        before: { kycRecord: profiles.length > 0, documents: documents.length },
        after: { kycRecord: false, documents: 0, retentionDays: deps.config.kycRetentionDays },
      });
      return documents.map((d) => d.storageKey);
    });
    if (!keys) continue;
    purged += 1;
    // After the commit: a file whose row is gone is unreachable anyway; a failed delete is logged, not retried.
    for (const key of keys) await deps.storage.delete(key).catch((error: unknown) => deps.logger.warn({ err: error }, 'kyc document not deleted from storage'));
  }
  return purged;
}
