import { z } from 'zod';
import { userSummarySchema } from './auth';
import { messages } from './messages';
import { requiredString } from './fields';
import { transactionSchema } from './money';
import { PROJECT_ASSET_URL_PATTERN } from './project-assets';

const m = messages.projects;
const invalid = messages.validation.invalidInput;

export const PROJECT_TYPES = ['residential', 'commercial', 'land'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PROJECT_STATUSES = ['available', 'sold', 'reserved'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const PAYMENT_SCHEDULES = ['monthly', 'quarterly', 'annually'] as const;
export type PaymentSchedule = (typeof PAYMENT_SCHEDULES)[number];

export const PROJECT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const PROJECT_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const PROJECT_MAX_IMAGES = 12;
export const PROJECT_MAX_DOCUMENTS = 12;
export const PROJECT_MAX_FEATURES = 30;
const currentYear = () => new Date().getUTCFullYear();
const yearBuiltInvalid = () => m.yearBuiltInvalid(currentYear());
const isMultipleOf = (value: number, step: number) => Math.abs(Math.round(value / step) * step - value) < 1e-9;
/** A finite JSON number (the forms send numbers, not strings). */
const numberFrom = (message: string) => z.number({ error: message }).finite(message);
const usd = (message: string) =>
  numberFrom(message)
    .min(0, message)
    .max(1_000_000_000, message)
    .refine((v) => isMultipleOf(v, 0.01), message);
const text = (required: string, max: number) => requiredString(required).trim().min(1, required).max(max, m.tooLong);
/**
 * Images must be our own uploads: they are resized and stripped of metadata here, and the web app's CSP
 * (img-src 'self') would not show anyone else's. The server also checks that the upload exists.
 */
const imageUrl = z
  .string({ error: m.imageUrlInvalid })
  .trim()
  .max(500, m.imageUrlInvalid)
  .regex(PROJECT_ASSET_URL_PATTERN, m.imageUrlInvalid);
/** Documents are our own uploads or an https address (a document hosted elsewhere opens in a new tab). */
const documentUrl = z
  .string({ error: m.documentInvalid })
  .trim()
  .max(500, m.documentInvalid)
  .refine((v) => PROJECT_ASSET_URL_PATTERN.test(v) || /^https:\/\/[^\s/?#]+[^\s]*$/.test(v), m.documentInvalid);
const isoDate = z
  .string({ error: m.dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, m.dateInvalid)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), m.dateInvalid);

export const projectDocumentSchema = z.object({
  name: z.string({ error: m.documentInvalid }).trim().min(1, m.documentInvalid).max(200, m.tooLong),
  url: documentUrl,
});

export const projectDetailsBody = z.object({
  features: z
    .array(z.string({ error: invalid }).trim().min(1, invalid).max(200, m.tooLong), { error: invalid })
    .max(PROJECT_MAX_FEATURES, m.tooMany)
    .default([]),
  propertyType: text(m.propertyTypeRequired, 100),
  size: text(m.sizeRequired, 100),
  units: numberFrom(m.unitsInvalid).int(m.unitsInvalid).min(1, m.unitsInvalid).max(1_000_000, m.unitsInvalid),
  // The message names the current year when it is raised, not when this module was loaded.
  yearBuilt: z
    .number({ error: yearBuiltInvalid })
    .finite({ error: yearBuiltInvalid })
    .int({ error: yearBuiltInvalid })
    .min(1800, { error: yearBuiltInvalid })
    .refine((y) => y <= currentYear(), { error: yearBuiltInvalid }),
  occupancyRate: numberFrom(m.occupancyInvalid).min(0, m.occupancyInvalid).max(100, m.occupancyInvalid),
  paymentSchedule: z.enum(PAYMENT_SCHEDULES, { error: m.paymentScheduleInvalid }),
  documents: z.array(projectDocumentSchema, { error: m.documentInvalid }).max(PROJECT_MAX_DOCUMENTS, m.tooMany).default([]),
});

/**
 * The fields of the admin project form (docs/product.md §6.1 A project), before the cross-field rules. No defaults
 * here: a PATCH that leaves a field out must leave it unchanged, and zod applies a default even to a field
 * made optional by `.partial()`.
 */
const projectFields = z.object({
  title: text(m.titleRequired, 200),
  description: text(m.descriptionRequired, 5000),
  location: text(m.locationRequired, 200),
  type: z.enum(PROJECT_TYPES, { error: m.typeInvalid }),
  status: z.enum(PROJECT_STATUSES, { error: m.statusInvalid }),
  images: z.array(imageUrl, { error: m.imageUrlInvalid }).max(PROJECT_MAX_IMAGES, m.tooMany),
  target: usd(m.targetInvalid),
  roi: numberFrom(m.roiInvalid).min(0, m.roiInvalid).max(1000, m.roiInvalid).refine((v) => isMultipleOf(v, 0.1), m.roiInvalid),
  term: numberFrom(m.termInvalid).int(m.termInvalid).min(1, m.termInvalid).max(1200, m.termInvalid),
  minInvestment: usd(m.minInvestmentInvalid),
  startDate: isoDate.nullable().optional(),
  endDate: isoDate.nullable().optional(),
  details: projectDetailsBody,
});

type ProjectRuleInput = { target?: number; minInvestment?: number; startDate?: string | null; endDate?: string | null };
/** Cross-field rules, applied to a new project and to a project after a PATCH is merged into it. */
export function projectRuleIssues(p: ProjectRuleInput): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (p.target !== undefined && p.minInvestment !== undefined && p.minInvestment > p.target) {
    issues.push({ field: 'minInvestment', message: m.minInvestmentAboveTarget });
  }
  if (p.startDate && p.endDate && p.endDate < p.startDate) issues.push({ field: 'endDate', message: m.datesInvalid });
  return issues;
}

const withRules = <T extends z.ZodType<ProjectRuleInput>>(schema: T) =>
  schema.superRefine((value, ctx) => {
    for (const issue of projectRuleIssues(value)) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  });

/** POST /api/projects. `funded` and `owner` are the server's: sent values are ignored. */
export const createProjectBody = withRules(
  projectFields.extend({
    status: projectFields.shape.status.default('available'),
    images: projectFields.shape.images.default([]),
  }),
);
export type CreateProjectBody = z.input<typeof createProjectBody>;

/** PATCH /api/projects/{id}: any subset; `details` replaces the whole details object when given. */
export const updateProjectBody = withRules(projectFields.partial());
export type UpdateProjectBody = z.input<typeof updateProjectBody>;

/**
 * The project as the API answers it (docs/product.md §9.1 General: `_id`, `owner {_id, firstName, lastName, email}`).
 * `owner.email` goes to admins only: a member sees the owner by name, without the key.
 */
export const projectSchema = z.object({
  _id: z.string(),
  owner: userSummarySchema.partial({ email: true }),
  title: z.string(),
  description: z.string(),
  location: z.string(),
  type: z.enum(PROJECT_TYPES),
  status: z.enum(PROJECT_STATUSES),
  images: z.array(z.string()),
  target: z.number(),
  funded: z.number(),
  roi: z.number(),
  term: z.number(),
  minInvestment: z.number(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  details: z.object({
    features: z.array(z.string()),
    propertyType: z.string(),
    size: z.string(),
    units: z.number(),
    yearBuilt: z.number(),
    occupancyRate: z.number(),
    paymentSchedule: z.enum(PAYMENT_SCHEDULES),
    documents: z.array(z.object({ name: z.string(), url: z.string() })),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Project = z.infer<typeof projectSchema>;

/** GET /api/projects filters; an empty value means "all" (the spec's client appends only non-empty ones). */
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
export const projectsQuery = z.object({
  search: z.string().trim().max(100, m.tooLong).optional(),
  type: z.preprocess(emptyToUndefined, z.enum(PROJECT_TYPES, { error: m.typeInvalid }).optional()),
  status: z.preprocess(emptyToUndefined, z.enum(PROJECT_STATUSES, { error: m.statusInvalid }).optional()),
});
export type ProjectsQuery = z.input<typeof projectsQuery>;

/** POST /api/projects/{id}/invest (docs/product.md §6 Projects and investing). */
export const investBody = z.object({
  amount: numberFrom(m.amountInvalid)
    .positive(m.amountInvalid)
    .max(1_000_000_000, m.amountInvalid)
    .refine((v) => isMultipleOf(v, 0.01), m.amountInvalid),
});
export type InvestBody = z.input<typeof investBody>;
/** The investment's transaction (it is listed with the member's transactions) and the project after it. */
export const investResponseSchema = z.object({ transaction: transactionSchema, project: projectSchema });
export type InvestResponse = z.infer<typeof investResponseSchema>;

export const PROJECT_ASSET_KINDS = ['image', 'document'] as const;
export type ProjectAssetKind = (typeof PROJECT_ASSET_KINDS)[number];
/** The `kind` field of POST /api/projects/assets (multipart, beside `file`). */
export const projectAssetKind = z.enum(PROJECT_ASSET_KINDS, { error: m.assetKindInvalid });

/** An uploaded project image or document: `url` goes into `images` or `details.documents`. */
export const projectAssetSchema = z.object({
  _id: z.string(),
  kind: z.enum(PROJECT_ASSET_KINDS),
  name: z.string(),
  contentType: z.string(),
  url: z.string(),
  /** The spec's upload answers are read for fileUrl (KYC); the same name here. */
  fileUrl: z.string(),
});
export type ProjectAsset = z.infer<typeof projectAssetSchema>;
