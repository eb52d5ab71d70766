import { z } from 'zod';
import { twoFactorRequired, userSchema, userSummarySchema, verificationRequired } from './auth';
import { requiredString } from './fields';
import { KYC_DOCUMENT_LABELS, KYC_DOCUMENT_TYPES, type KycDocumentType } from './kyc-documents';
import { messages } from './messages';

export const ID_TYPES = ['passport', 'driver_license', 'national_id'] as const;
export type IdType = (typeof ID_TYPES)[number];
export const ID_TYPE_LABELS: Record<IdType, string> = {
  passport: 'Passport',
  driver_license: "Driver's license",
  national_id: 'National ID',
};

/** Nationality and country options (docs/product.md §4.2 The wizard). */
export const COUNTRY_OPTIONS = [
  { value: 'US', label: 'United States' },
  { value: 'UK', label: 'United Kingdom' },
  { value: 'CA', label: 'Canada' },
  { value: 'AU', label: 'Australia' },
  { value: 'FR', label: 'France' },
  { value: 'DE', label: 'Germany' },
  { value: 'JP', label: 'Japan' },
  { value: 'SG', label: 'Singapore' },
  { value: 'other', label: 'Other' },
] as const;
export const COUNTRY_CODES = COUNTRY_OPTIONS.map((c) => c.value) as [string, ...string[]];

export const KYC_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Documents a member may upload in any 24 hours (stored ones; refused uploads do not count). */
export const KYC_MAX_UPLOADS_PER_DAY = 20;

/** What each ID type needs: the front always, the back of a card (ID card, driving licence), a proof of address. */
export const KYC_REQUIRED_DOCUMENTS: Record<IdType, readonly KycDocumentType[]> = {
  passport: ['idFront', 'proofOfAddress'],
  driver_license: ['idFront', 'idBack', 'proofOfAddress'],
  national_id: ['idFront', 'idBack', 'proofOfAddress'],
};

/** The documents `idType` needs that are not among `present`, in the wizard's order. */
export const missingKycDocuments = (idType: IdType, present: Iterable<KycDocumentType>): KycDocumentType[] => {
  const have = new Set(present);
  return KYC_REQUIRED_DOCUMENTS[idType].filter((type) => !have.has(type));
};

/** The message for missing documents: "Please upload your ID back and proof of address". */
export function missingDocumentsMessage(missing: readonly KycDocumentType[]): string {
  const names = missing.map((type) => (type === 'proofOfAddress' ? 'proof of address' : KYC_DOCUMENT_LABELS[type]));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
  return messages.kyc.documentsMissing(list);
}
export const KYC_MIN_AGE_YEARS = 18;
/** Which detected content types each document accepts (decided from the file's bytes, never its name). */
export const KYC_ALLOWED_TYPES: Record<KycDocumentType, readonly string[]> = {
  idFront: ['image/jpeg', 'image/png'],
  idBack: ['image/jpeg', 'image/png'],
  proofOfAddress: ['image/jpeg', 'image/png', 'application/pdf'],
};

const m = messages.kyc;
/** Every missing field of a step reads the spec's one message. */
const stepText = (max: number) => requiredString(m.fillAllFields).trim().min(1, m.fillAllFields).max(max, m.tooLong);

const isoDate = requiredString(m.fillAllFields)
  .regex(/^\d{4}-\d{2}-\d{2}$/, m.fillAllFields)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), m.invalidDate);

/** The spec's four steps; the server checks all of them again on submit. */
/** True when someone born on `isoDay` (YYYY-MM-DD) is at least `years` old on `today`. */
export function isAtLeastYearsOld(isoDay: string, years: number, today: Date = new Date()): boolean {
  const [y, mo, d] = isoDay.split('-').map(Number) as [number, number, number];
  const threshold = Date.UTC(y + years, mo - 1, d);
  return threshold <= Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
}

export const kycPersonalStep = z.object({
  firstName: stepText(50),
  lastName: stepText(50),
  dateOfBirth: isoDate.refine((v) => isAtLeastYearsOld(v, KYC_MIN_AGE_YEARS), m.tooYoung),
  nationality: z.enum(COUNTRY_CODES, { error: m.fillAllFields }),
});
export const kycAddressStep = z.object({
  address: stepText(200),
  city: stepText(100),
  state: z.string().trim().max(100, m.tooLong).optional().default(''),
  postalCode: stepText(20),
  country: z.enum(COUNTRY_CODES, { error: m.fillAllFields }),
});
export const kycIdentityStep = z.object({
  idType: z.enum(ID_TYPES, { error: m.fillAllFields }).default('passport'),
  idNumber: stepText(50),
});
/** Documents travel as their fileUrl strings, or as {url, type} objects (both appear in the spec). */
const documentRef = z.union([
  z.string().max(300),
  z.object({ url: z.string().max(300), type: z.enum(KYC_DOCUMENT_TYPES).optional() }).transform((d) => d.url),
]);
export const kycDocumentsStep = z.object({
  documents: z.array(documentRef, { error: m.documentsRequired }).min(1, m.documentsRequired).max(3, m.tooManyDocuments),
});

export const kycSubmitBody = kycPersonalStep
  .extend(kycAddressStep.shape)
  .extend(kycIdentityStep.shape)
  .extend(kycDocumentsStep.shape)
  .extend({ confirmed: z.literal(true, { error: m.confirmRequired }) });
export type KycSubmitBody = z.input<typeof kycSubmitBody>;

export const kycUploadResponse = z.object({ fileUrl: z.string(), documentType: z.enum(KYC_DOCUMENT_TYPES) });
export type KycUploadResponse = z.infer<typeof kycUploadResponse>;

export const kycDocumentLink = z.object({
  url: z.string(),
  expiresAt: z.string(),
  contentType: z.string(),
  documentType: z.enum(KYC_DOCUMENT_TYPES),
});
export type KycDocumentLink = z.infer<typeof kycDocumentLink>;

/** The KYC object of a user (docs/product.md §4.2 The wizard). `documents` are the fileUrls, with the type as a path segment. */
export const kycInfoSchema = z.object({
  dateOfBirth: z.string().nullable(),
  nationality: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  idType: z.enum(ID_TYPES).nullable(),
  idNumber: z.string().nullable(),
  kycSubmittedAt: z.string().nullable(),
  kycRejectionReason: z.string().nullable(),
  kycReviewedAt: z.string().nullable(),
  documents: z.array(z.string()),
});
export type KycInfo = z.infer<typeof kycInfoSchema>;

export const userWithKycSchema = userSchema.extend({ kyc: kycInfoSchema.nullable() });
export type UserWithKyc = z.infer<typeof userWithKycSchema>;

/**
 * The one user object: sign-in, the code check, the profile, the KYC answers and the admin's user views all
 * answer exactly these fields (the server builds it in one function, modules/users/public-user.ts).
 */
export const publicUserSchema = userWithKycSchema;
export type PublicUser = UserWithKyc;

/** A signed-in answer: the session token and the same user object the profile answers. */
export const authSuccess = z.object({ token: z.string(), user: publicUserSchema });
export type AuthSuccess = z.infer<typeof authSuccess>;

export const loginResponse = z.union([authSuccess, verificationRequired, twoFactorRequired]);
export type LoginResponse = z.infer<typeof loginResponse>;

export const adminVerifyBody = z
  .object({
    verified: z.boolean({ error: m.verifiedRequired }),
    rejectionReason: z.string().trim().max(500, m.tooLong).optional(),
  })
  .refine((b) => b.verified || (b.rejectionReason?.length ?? 0) > 0, {
    path: ['rejectionReason'],
    message: m.rejectionReasonRequired,
  });
export type AdminVerifyBody = z.input<typeof adminVerifyBody>;

export const auditEntrySchema = z.object({
  _id: z.string(),
  action: z.string(),
  actor: userSummarySchema.nullable(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const adminUserDetailSchema = z.object({
  user: userWithKycSchema,
  transactions: z.array(z.unknown()),
  auditLog: z.array(auditEntrySchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
