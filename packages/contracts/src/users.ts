import { z } from 'zod';
import { KYC_STATUSES, ROLES } from './constants';
import { nameField, phoneField } from './fields';
import { LANGUAGES } from './i18n/languages';
import { messages } from './messages';

export const ADMIN_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const listUsersQuery = z.object({
  search: z.string().trim().max(100).optional(),
  role: z.enum(ROLES).optional(),
  kycStatus: z.enum(KYC_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(ADMIN_PAGE_SIZE),
});
export type ListUsersQuery = z.input<typeof listUsersQuery>;

/** What an admin may change on a user. Money, KYC and verification have their own audited paths. */
export const adminUpdateUserBody = z.object({
  firstName: nameField.optional(),
  lastName: nameField.optional(),
  phone: phoneField.optional(),
  role: z.enum(ROLES).optional(),
});
export type AdminUpdateUserBody = z.input<typeof adminUpdateUserBody>;

/**
 * The language a member reads (issue 35): `locale` on the user, sent with PATCH /api/users/profile and optionally
 * with the sign-up (else the sign-up's Accept-Language is kept).
 */
export const localeField = z.enum(LANGUAGES, { error: messages.validation.localeInvalid });
