import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, instant, timestamps } from './columns';
import { userIdColumn } from './users';

/** What `details` holds (validated by the contracts' project schema before it is written). */
export type ProjectDetails = {
  features: string[];
  propertyType: string;
  size: string;
  units: number;
  yearBuilt: number;
  occupancyRate: number;
  paymentSchedule: 'monthly' | 'quarterly' | 'annually';
  documents: { name: string; url: string }[];
};

/**
 * A real-estate project (docs/product.md §6 Projects and investing). `funded_cents` rises only with an investment, in the same
 * database transaction as its journal entry; the CHECK keeps it within the target whatever arrives at once.
 * `search_text` is kept by the database and indexed with trigrams, so search over title, description and
 * location stays fast with many projects.
 */
export const projects = pgTable(
  'projects',
  {
    id: idColumn(),
    ownerId: userIdColumn('owner_id'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    location: text('location').notNull(),
    type: text('type', { enum: ['residential', 'commercial', 'land'] }).notNull(),
    status: text('status', { enum: ['available', 'sold', 'reserved'] }).notNull().default('available'),
    /** Public URLs of the images, first one is the cover. */
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    targetCents: bigint('target_cents', { mode: 'number' }).notNull(),
    fundedCents: bigint('funded_cents', { mode: 'number' }).notNull().default(0),
    /**
     * The part of `funded` raised before the project was listed here (the sample projects' sold and reserved
     * raises): funded = this + the completed investments, which `npm run ledger:check` verifies.
     */
    fundedBeforeCents: bigint('funded_before_cents', { mode: 'number' }).notNull().default(0),
    /** ROI percent in hundredths (8.5 % → 850); the form's step is 0.1. */
    roiBasisPoints: integer('roi_basis_points').notNull(),
    termMonths: integer('term_months').notNull(),
    minInvestmentCents: bigint('min_investment_cents', { mode: 'number' }).notNull(),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    details: jsonb('details').$type<ProjectDetails>().notNull(),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(title || ' ' || description || ' ' || location)`),
    ...timestamps(),
  },
  (t) => [
    check('projects_type_check', sql`${t.type} in ('residential', 'commercial', 'land')`),
    check('projects_status_check', sql`${t.status} in ('available', 'sold', 'reserved')`),
    check('projects_amounts', sql`${t.targetCents} >= 0 and ${t.minInvestmentCents} >= 0 and ${t.minInvestmentCents} <= ${t.targetCents}`),
    check('projects_funded_within_target', sql`${t.fundedCents} >= 0 and ${t.fundedCents} <= ${t.targetCents}`),
    check('projects_funded_before_within_funded', sql`${t.fundedBeforeCents} >= 0 and ${t.fundedBeforeCents} <= ${t.fundedCents}`),
    check('projects_roi_term', sql`${t.roiBasisPoints} >= 0 and ${t.termMonths} >= 1`),
    index('projects_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('projects_type_status_idx').on(t.type, t.status),
    index('projects_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/**
 * An image or document an admin uploaded for projects. Public (unlike KYC files): served with long cache
 * headers. `variants` names the stored key of each size the screens use (images) or of the file (documents).
 */
export const projectAssets = pgTable(
  'project_assets',
  {
    id: idColumn(),
    kind: text('kind', { enum: ['image', 'document'] }).notNull(),
    contentType: text('content_type').notNull(),
    fileName: text('file_name').notNull(),
    byteSize: integer('byte_size').notNull(),
    variants: jsonb('variants').$type<Record<string, string>>().notNull(),
    uploadedBy: userIdColumn('uploaded_by'),
    createdAt: instant('created_at').notNull(),
  },
  (t) => [check('project_assets_kind_check', sql`${t.kind} in ('image', 'document')`)],
);

export type ProjectRow = typeof projects.$inferSelect;
export type ProjectAssetRow = typeof projectAssets.$inferSelect;

/** Seeds that ran once on this database (the sample projects): deleting the projects later does not bring them back. */
export const seedRuns = pgTable('seed_runs', {
  name: text('name').primaryKey(),
  ranAt: instant('ran_at').notNull(),
});
