import { and, asc, count, eq, gt, inArray, isNull, min } from 'drizzle-orm';
import {
  KYC_ALLOWED_TYPES,
  KYC_MAX_FILE_BYTES,
  KYC_MAX_UPLOADS_PER_DAY,
  messages,
  missingDocumentsMessage,
  missingKycDocuments,
  UUID_PATTERN,
  type KycDocumentType,
  type KycInfo,
  type adminVerifyBody,
  type kycSubmitBody,
} from '@terrafund/contracts';
import type { z } from 'zod';
import { kycDocuments, kycProfiles, users, type UserRow } from '../../db/schema';
import { lockMember } from '../../db/member-lock';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { detectFileType, extensionFor } from '../../lib/file-type';
import { PictureError, reencodePicture, type PictureType } from '../../lib/image';
import type { FileStorage } from '../../lib/storage';
import { recordAudit } from '../audit';
import { opensAsAdmin } from '../sessions';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';
import { signKycLink, verifyKycLink, type Disposition } from './kyc-links';

type KycDeps = Deps & { storage: FileStorage };

/** The stable name of a document: the type is a path segment (docs/product.md §4.2 The wizard). */
const documentUrl = (type: KycDocumentType, id: string) => `/api/kyc/documents/${type}/${id}`;
const DOCUMENT_URL_PATTERN = /^\/api\/kyc\/documents\/(idFront|idBack|proofOfAddress)\/([0-9a-f-]{36})$/i;

const DAY_MS = 24 * 3600 * 1000;

/**
 * Stores one KYC document. Its type is decided from its bytes; a picture is stored as pixels we encoded
 * ourselves (lib/image.ts: no EXIF GPS, no camera serial, nothing appended), as the type detected. A member
 * stores at most KYC_MAX_UPLOADS_PER_DAY documents in any 24 hours: counted with the member's row locked, so
 * simultaneous uploads cannot pass the limit together.
 */
export async function uploadDocument(
  deps: KycDeps,
  user: UserRow,
  input: { documentType: KycDocumentType; bytes: Buffer },
) {
  const contentType = detectFileType(input.bytes);
  if (!contentType || !KYC_ALLOWED_TYPES[input.documentType].includes(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', messages.kyc.invalidFileType);
  }
  const bytes = contentType === 'application/pdf' ? input.bytes : await cleanPicture(input.bytes, contentType as PictureType);

  // The file is stored before its row is written, and outside the transaction: a row never names a file the store
  // did not take, and a slow or unreachable bucket (503) holds no database connection or lock. A file whose row is
  // then refused (the daily limit, an outage) is removed; if even that fails, it is an orphan no row names.
  const storageKey = await deps.storage.put('kyc', bytes);
  try {
    const id = await deps.db.transaction(async (tx) => {
      await lockMember(tx, user.id);
      const now = deps.clock.now();
      const since = new Date(now.getTime() - DAY_MS);
      const [recent] = await tx
        .select({ count: count(), oldest: min(kycDocuments.createdAt) })
        .from(kycDocuments)
        .where(and(eq(kycDocuments.userId, user.id), gt(kycDocuments.createdAt, since)));
      if ((recent?.count ?? 0) >= KYC_MAX_UPLOADS_PER_DAY) {
        const frees = (recent?.oldest?.getTime() ?? now.getTime()) + DAY_MS;
        throw new AppError('RATE_LIMITED', messages.kyc.uploadLimit(KYC_MAX_UPLOADS_PER_DAY), {
          retryAfter: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)),
        });
      }
      const [row] = await tx
        .insert(kycDocuments)
        .values({ userId: user.id, documentType: input.documentType, storageKey, contentType, sizeBytes: bytes.length, createdAt: now })
        .returning({ id: kycDocuments.id });
      return row!.id;
    });
    return { fileUrl: documentUrl(input.documentType, id), documentType: input.documentType };
  } catch (error) {
    await deps.storage.delete(storageKey).catch(() => {});
    throw error;
  }
}

/** A picture re-encoded without metadata, still within the size limit; anything that does not decode is refused. */
async function cleanPicture(bytes: Buffer, type: PictureType): Promise<Buffer> {
  let clean: Buffer;
  try {
    clean = await reencodePicture(bytes, type);
  } catch (error) {
    if (error instanceof PictureError && error.reason === 'too-many-pixels') throw new AppError('PAYLOAD_TOO_LARGE', messages.kyc.fileTooLarge);
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', messages.kyc.invalidFileType);
  }
  if (clean.length > KYC_MAX_FILE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', messages.kyc.fileTooLarge);
  return clean;
}

/** A signed link for the owner or an admin; anyone else is told the document does not exist. */
export async function documentLink(
  deps: KycDeps,
  requester: UserRow,
  type: string,
  id: string,
  disposition: Disposition,
) {
  const notFound = new AppError('NOT_FOUND', messages.common.notFound);
  if (!UUID_PATTERN.test(id)) throw notFound;
  const [doc] = await deps.db.select().from(kycDocuments).where(eq(kycDocuments.id, id)).limit(1);
  if (!doc || doc.documentType !== type) throw notFound;
  if (doc.userId !== requester.id && !opensAsAdmin(deps, requester)) throw notFound;
  const link = signKycLink(deps.config.appSecret, doc.id, deps.clock.now(), disposition);
  return { url: link.url, expiresAt: link.expiresAt.toISOString(), contentType: doc.contentType, documentType: doc.documentType };
}

/** The bytes behind a signed link; an unsigned, tampered or expired link is a 403. */
export async function readSignedFile(
  deps: KycDeps,
  link: { id: string; expires: number; disposition: Disposition; sig: string },
) {
  if (!UUID_PATTERN.test(link.id) || !verifyKycLink(deps.config.appSecret, link, deps.clock.now())) {
    throw new AppError('FORBIDDEN', messages.kyc.linkInvalid);
  }
  const [doc] = await deps.db.select().from(kycDocuments).where(eq(kycDocuments.id, link.id)).limit(1);
  if (!doc) throw new AppError('FORBIDDEN', messages.kyc.linkInvalid);
  const bytes = await deps.storage.get(doc.storageKey);
  const filename = `${doc.documentType}.${extensionFor[doc.contentType as keyof typeof extensionFor]}`;
  return { bytes, contentType: doc.contentType, filename, disposition: link.disposition };
}

/** The KYC object of each user (null for those who never submitted). */
export async function kycInfoFor(deps: Pick<Deps, 'db'>, userIds: string[]): Promise<Map<string, KycInfo>> {
  const result = new Map<string, KycInfo>();
  if (userIds.length === 0) return result;
  const profiles = await deps.db.select().from(kycProfiles).where(inArray(kycProfiles.userId, userIds));
  const docIds = profiles.flatMap((p) => p.documentIds);
  const docs = docIds.length
    ? await deps.db
        .select({ id: kycDocuments.id, type: kycDocuments.documentType })
        .from(kycDocuments)
        .where(inArray(kycDocuments.id, docIds))
    : [];
  const docById = new Map(docs.map((d) => [d.id, d]));
  for (const p of profiles) {
    result.set(p.userId, {
      dateOfBirth: p.dateOfBirth,
      nationality: p.nationality,
      address: p.address,
      city: p.city,
      state: p.state,
      postalCode: p.postalCode,
      country: p.country,
      idType: p.idType,
      idNumber: p.idNumber,
      kycSubmittedAt: p.submittedAt.toISOString(),
      kycRejectionReason: p.rejectionReason,
      kycReviewedAt: p.reviewedAt?.toISOString() ?? null,
      documents: p.documentIds
        .map((id) => docById.get(id))
        .filter((d) => d !== undefined)
        .map((d) => documentUrl(d.type, d.id)),
    });
  }
  return result;
}

export async function submitKyc(deps: KycDeps, user: UserRow, body: z.output<typeof kycSubmitBody>) {
  const ids: string[] = [];
  for (const url of body.documents) {
    const match = DOCUMENT_URL_PATTERN.exec(url);
    if (!match) throw new AppError('VALIDATION_ERROR', messages.kyc.documentNotFound, { fields: { documents: messages.kyc.documentNotFound } });
    ids.push(match[2]!.toLowerCase());
  }
  const uniqueIds = [...new Set(ids)];
  const updated = await deps.db.transaction(async (tx) => {
    // The user row lock makes the status check and the change one step, whatever arrives at once.
    const [locked] = await tx.select().from(users).where(and(eq(users.id, user.id), isNull(users.deletedAt))).for('no key update');
    if (!locked) throw new AppError('UNAUTHENTICATED', messages.auth.sessionExpired);
    if (locked.kycStatus !== 'not_started' && locked.kycStatus !== 'rejected') {
      throw new AppError('CONFLICT', messages.kyc.cannotSubmit);
    }
    const owned = await tx
      .select({ id: kycDocuments.id, type: kycDocuments.documentType })
      .from(kycDocuments)
      .where(and(inArray(kycDocuments.id, uniqueIds), eq(kycDocuments.userId, user.id)));
    if (owned.length !== uniqueIds.length) {
      throw new AppError('VALIDATION_ERROR', messages.kyc.documentNotFound, { fields: { documents: messages.kyc.documentNotFound } });
    }
    // Every document the ID type needs, as stored (not as the URL names it).
    const missing = missingKycDocuments(body.idType, owned.map((d) => d.type));
    if (missing.length > 0) {
      const message = missingDocumentsMessage(missing);
      throw new AppError('VALIDATION_ERROR', message, { fields: { documents: message } });
    }
    const now = deps.clock.now();
    const values = {
      firstName: body.firstName,
      lastName: body.lastName,
      dateOfBirth: body.dateOfBirth,
      nationality: body.nationality,
      address: body.address,
      city: body.city,
      state: body.state,
      postalCode: body.postalCode,
      country: body.country,
      idType: body.idType,
      idNumber: body.idNumber,
      documentIds: uniqueIds,
      submittedAt: now,
      reviewedAt: null,
      reviewedBy: null,
      rejectionReason: null,
    };
    await tx
      .insert(kycProfiles)
      .values({ userId: user.id, ...values })
      .onConflictDoUpdate({ target: kycProfiles.userId, set: values });
    const [row] = await tx
      .update(users)
      .set({ kycStatus: 'pending', kycVerified: false, updatedAt: now })
      .where(eq(users.id, user.id))
      .returning();
    return row!;
  });
  return updated;
}

export async function pendingKycUsers(deps: Deps) {
  const rows = await deps.db
    .select({ user: users })
    .from(users)
    .innerJoin(kycProfiles, eq(kycProfiles.userId, users.id))
    .where(and(eq(users.kycStatus, 'pending'), isNull(users.deletedAt), isNull(users.closedAt)))
    .orderBy(asc(kycProfiles.submittedAt))
    .limit(500);
  return rows.map((r) => r.user);
}

/** An admin approves or rejects a pending KYC; exactly one decision wins when several arrive at once. Answers the updated row (the route shows it as the API user). */
export async function decideKyc(deps: KycDeps, admin: UserRow, userId: string, body: z.output<typeof adminVerifyBody>) {
  if (!UUID_PATTERN.test(userId)) throw new AppError('NOT_FOUND', messages.users.notFound);
  const decided = await deps.db.transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(and(eq(users.id, userId), isNull(users.deletedAt))).for('no key update');
    if (!target) throw new AppError('NOT_FOUND', messages.users.notFound);
    if (target.id === admin.id) throw new AppError('FORBIDDEN', messages.auth.forbidden);
    // A closed account (modules/privacy) keeps its KYC record for the law, not for a decision.
    if (target.closedAt) throw new AppError('CONFLICT', messages.privacy.accountClosed);
    if (target.kycStatus !== 'pending') throw new AppError('CONFLICT', messages.kyc.notPending);
    const now = deps.clock.now();
    const status = body.verified ? 'approved' : 'rejected';
    const reason = body.verified ? null : (body.rejectionReason ?? '');
    const [row] = await tx
      .update(users)
      .set({ kycStatus: status, kycVerified: body.verified, updatedAt: now })
      .where(eq(users.id, target.id))
      .returning();
    await tx
      .update(kycProfiles)
      .set({ reviewedAt: now, reviewedBy: admin.id, rejectionReason: reason })
      .where(eq(kycProfiles.userId, target.id));
    await recordAudit(tx, deps, {
      actorId: admin.id,
      action: body.verified ? 'kyc.approved' : 'kyc.rejected',
      targetType: 'user',
      targetId: target.id,
      before: { kycStatus: target.kycStatus, kycVerified: target.kycVerified },
      after: { kycStatus: status, kycVerified: body.verified, ...(reason ? { rejectionReason: reason } : {}) },
    });
    // One decision per submission (the row lock above): keyed by the decision's time.
    if (body.verified) {
      await notify(tx, deps, target.id, 'kyc.approved', undefined, `kyc.approved:${now.toISOString()}`);
    } else {
      await notify(tx, deps, target.id, 'kyc.rejected', { reason: reason! }, `kyc.rejected:${now.toISOString()}`);
    }
    if (body.verified) {
      await enqueueMail(tx, deps, target.email, 'kycApproved', { firstName: target.firstName, walletUrl: `${deps.config.publicUrl}/wallet` });
    } else {
      await enqueueMail(tx, deps, target.email, 'kycRejected', { firstName: target.firstName, reason: reason!, kycUrl: `${deps.config.publicUrl}/kyc` });
    }
    return row!;
  });
  deps.mailQueued();
  return decided;
}
