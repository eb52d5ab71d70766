import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  KYC_REQUIRED_DOCUMENTS,
  kycAddressStep,
  kycDocumentsStep,
  kycIdentityStep,
  kycPersonalStep,
  kycSubmitBody,
  messages,
  missingDocumentsMessage,
  missingKycDocuments,
  type IdType,
  type KycInfo,
  type KycSubmitBody,
  type User,
} from '@terrafund/contracts';
import { toKycDocuments, type KycDocument } from './documents';

/** Everything the wizard asks, as the form holds it (docs/product.md §4.2 The wizard, KYC form). */
export type KycFormValues = {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  nationality: string;
  address: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  idType: IdType;
  idNumber: string;
  documents: KycDocument[];
  confirmed: boolean;
};

export type KycFieldName = keyof KycFormValues;

/** The last step is the documents plus the confirmation, which the server enforces (docs/product.md §4 KYC). */
const kycFinalStep = kycDocumentsStep.extend({ confirmed: kycSubmitBody.shape.confirmed });

/**
 * The four steps in order (docs/product.md §4.2 The wizard), each checked with its schema from the contracts; their
 * titles and descriptions are the kyc catalogue's `steps.<id>`.
 */
export const KYC_STEPS = [
  {
    id: 'personal',
    schema: kycPersonalStep,
    fields: ['firstName', 'lastName', 'dateOfBirth', 'nationality'],
  },
  {
    id: 'address',
    schema: kycAddressStep,
    fields: ['address', 'city', 'state', 'postalCode', 'country'],
  },
  {
    id: 'identity',
    schema: kycIdentityStep,
    fields: ['idType', 'idNumber'],
  },
  {
    id: 'documents',
    schema: kycFinalStep,
    fields: ['documents', 'confirmed'],
  },
] as const satisfies ReadonlyArray<{ id: string; schema: unknown; fields: readonly KycFieldName[] }>;

export type KycStepIndex = 0 | 1 | 2 | 3;
export const LAST_STEP = (KYC_STEPS.length - 1) as KycStepIndex;

/** The form's starting values: the user's name, and for a resubmission what was sent last time. */
export function initialKycValues(user: Pick<User, 'firstName' | 'lastName'>, kyc: KycInfo | null | undefined): KycFormValues {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    dateOfBirth: kyc?.dateOfBirth?.slice(0, 10) ?? '',
    nationality: kyc?.nationality ?? '',
    address: kyc?.address ?? '',
    city: kyc?.city ?? '',
    state: kyc?.state ?? '',
    postalCode: kyc?.postalCode ?? '',
    country: kyc?.country ?? '',
    idType: kyc?.idType ?? 'passport',
    idNumber: kyc?.idNumber ?? '',
    documents: toKycDocuments(kyc?.documents ?? []),
    confirmed: false,
  };
}

type Issue = { path: readonly PropertyKey[]; message: string; code: string };

/** The first message for each field, in the form's error shape. */
export function issuesToErrors(issues: readonly Issue[]): FieldErrors<KycFormValues> {
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? '');
    if (name && !errors[name]) errors[name] = { type: issue.code, message: issue.message };
  }
  return errors as FieldErrors<KycFormValues>;
}

/** The documents the chosen ID type needs, of those uploaded, in the order the step shows them. */
export const requiredDocuments = (values: Pick<KycFormValues, 'idType' | 'documents'>): KycDocument[] =>
  KYC_REQUIRED_DOCUMENTS[values.idType].flatMap((type) => values.documents.filter((document) => document.type === type));

/**
 * The errors of one step; empty when it is complete. The documents step also needs every document the ID
 * type needs (the server refuses the submission otherwise), checked even while the confirmation is unticked.
 */
export function validateStep(index: KycStepIndex, values: KycFormValues): FieldErrors<KycFormValues> {
  const result = KYC_STEPS[index].schema.safeParse(values);
  const errors = result.success ? {} : issuesToErrors(result.error.issues);
  if (KYC_STEPS[index].id === 'documents' && !errors.documents) {
    const missing = missingKycDocuments(values.idType, values.documents.map((document) => document.type));
    if (missing.length > 0) errors.documents = { type: 'required', message: missingDocumentsMessage(missing) };
  }
  return errors;
}

/** Checks only the step on screen, so Next and the re-check while typing speak about that step alone. */
export function stepResolver(currentStep: () => KycStepIndex): Resolver<KycFormValues> {
  return async (values) => {
    const errors = validateStep(currentStep(), values);
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors };
  };
}

/** Missing answers read "Please fill all required fields" (docs/product.md §10 Messages); a wrong one reads its own message. */
export function stepToastMessage(errors: FieldErrors<KycFormValues>): string {
  const found = Object.values(errors).map((error) => error?.message);
  if (found.some((message) => message === messages.kyc.fillAllFields || message === messages.kyc.documentsRequired)) {
    return messages.kyc.fillAllFields;
  }
  return found.find((message): message is string => typeof message === 'string') ?? messages.kyc.fillAllFields;
}

/** The step a field is asked on. */
export function stepOf(field: string): KycStepIndex | null {
  const index = KYC_STEPS.findIndex((step) => (step.fields as readonly string[]).includes(field));
  return index === -1 ? null : (index as KycStepIndex);
}

/**
 * The request body: trimmed as the server would, confirmed: true, and as documents the fileUrls of exactly
 * what the ID type needs (an ID back uploaded before switching to a passport stays out).
 */
export function toSubmitBody(values: KycFormValues): KycSubmitBody {
  return kycSubmitBody.parse({ ...values, documents: requiredDocuments(values) });
}
