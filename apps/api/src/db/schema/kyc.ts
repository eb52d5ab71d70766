import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { idColumn, instant } from './columns';
import { users, userIdColumn } from './users';

/** An uploaded identity document. The bytes live in the file storage under `storageKey`, never served statically. */
export const kycDocuments = pgTable(
  'kyc_documents',
  {
    id: idColumn(),
    userId: userIdColumn('user_id', { onDelete: 'cascade' }),
    documentType: text('document_type', { enum: ['idFront', 'idBack', 'proofOfAddress'] }).notNull(),
    storageKey: text('storage_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [
    index('kyc_documents_user_idx').on(t.userId),
    check('kyc_documents_type_check', sql`${t.documentType} in ('idFront', 'idBack', 'proofOfAddress')`),
    check('kyc_documents_size_check', sql`${t.sizeBytes} > 0 and ${t.sizeBytes} <= 5242880`),
  ],
);

/** The member's latest KYC submission and its review. */
export const kycProfiles = pgTable('kyc_profiles', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  dateOfBirth: text('date_of_birth').notNull(),
  nationality: text('nationality').notNull(),
  address: text('address').notNull(),
  city: text('city').notNull(),
  state: text('state').notNull().default(''),
  postalCode: text('postal_code').notNull(),
  country: text('country').notNull(),
  idType: text('id_type', { enum: ['passport', 'driver_license', 'national_id'] }).notNull(),
  idNumber: text('id_number').notNull(),
  documentIds: uuid('document_ids').array().notNull(),
  submittedAt: instant('submitted_at').notNull(),
  reviewedAt: instant('reviewed_at'),
  reviewedBy: uuid('reviewed_by').references(() => users.id),
  rejectionReason: text('rejection_reason'),
});

/** Every admin decision: who, what, when, and the state before and after. Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: idColumn(),
    actorId: uuid('actor_id').references(() => users.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.createdAt.desc()),
    // The admin audit screen pages newest first by (created_at, id).
    index('audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);
