import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLES, KYC_STATUSES } from './constants';
import {
  emailField,
  nameField,
  otpField,
  passwordField,
  phoneField,
  requiredString,
} from './fields';
import { membershipViewSchema } from './membership';
import { messages } from './messages';
import { localeField } from './users';

const v = messages.validation;

export const userSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(ROLES),
  isEmailVerified: z.boolean(),
  kycStatus: z.enum(KYC_STATUSES),
  kycVerified: z.boolean(),
  balance: z.number(),
  /** The active pack (null once it has ended): the spec's three fields. */
  membershipLevel: z.string().nullable(),
  membershipStartDate: z.string().nullable(),
  membershipEndDate: z.string().nullable(),
  /** The active membership, or the one that ended last (status `ended`, with `endedAt`); null if none ever. */
  currentMembership: membershipViewSchema.nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  /**
   * When the member closed the account (issue 34), null while it is open. Only admins ever see a closed account
   * (status "Closed", its e-mail the tombstone `closed-<id>@invalid`); it cannot sign in or be reopened.
   */
  closedAt: z.string().nullable().optional(),
  /** The member's language (issue 35): always sent by the API; optional so a client built before it still parses. */
  locale: localeField.optional(),
});
export type User = z.infer<typeof userSchema>;

/** A user named inside another answer (who acted, whose transaction, whose project): who they are, nothing more. */
export const userSummarySchema = userSchema.pick({ _id: true, firstName: true, lastName: true, email: true });

/** The second typing of a new password, on every form that asks for one. */
const confirmPasswordField = requiredString(v.confirmPasswordRequired).min(1, v.confirmPasswordRequired);

/** The form refused, with `message` under confirmPassword, unless confirmPassword repeats `field` exactly. */
function confirmedBy<S extends z.ZodType<Record<K | 'confirmPassword', string>>, K extends string>(schema: S, field: K, message: string): S {
  return schema.refine((f) => f[field] === f.confirmPassword, { path: ['confirmPassword'], message });
}

/**
 * The strength rule (password-strength.ts), loaded on first use: in the browser its word lists are a chunk of
 * their own, fetched only by the forms that set a password.
 */
export const loadPasswordStrength = () => import('./password-strength');

type Person = { email?: string; firstName?: string; lastName?: string };

/**
 * The form refused, with zxcvbn's reason under `field`, when the new password is one the API refuses too
 * (same rule, same message). Asynchronous because the rule loads on first use; a password of the wrong length
 * has its own message already (passwordField). `person` names the words the member typed about themselves.
 */
function checkingStrength<S extends z.ZodType<Record<K, string>>, K extends string>(schema: S, field: K, person: (form: z.output<S>) => Person): S {
  return schema.superRefine(async (form, ctx) => {
    const password = form[field];
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return;
    const strength = await loadPasswordStrength();
    const problem = strength.passwordStrengthProblem(password, strength.personalInputs(person(form)));
    if (problem) ctx.addIssue({ code: 'custom', path: [field], message: problem });
  });
}

export const registerBody = z.object({
  firstName: nameField,
  lastName: nameField,
  email: emailField,
  phone: phoneField.optional().default(''),
  password: passwordField,
  /** The language the sign-up was made in; without it the API keeps the request's Accept-Language. */
  locale: localeField.optional(),
});
export type RegisterBody = z.input<typeof registerBody>;

/** The registration form: the API body plus what only the browser checks (the strength rule is the API's too). */
export const registerForm = checkingStrength(
  confirmedBy(
    registerBody.extend({ phone: phoneField, confirmPassword: confirmPasswordField, terms: z.boolean().refine((ticked) => ticked, v.termsRequired) }),
    'password',
    v.passwordsDoNotMatch,
  ),
  'password',
  (form) => form,
);
export type RegisterForm = z.input<typeof registerForm>;

export const loginBody = z.object({
  email: emailField,
  password: passwordField,
  rememberMe: z.boolean().optional().default(false),
});
export type LoginBody = z.input<typeof loginBody>;

/** rememberMe picks the session's lifetime as at login; the spec's client omits it and gets a remembered one. */
export const verifyOtpBody = z.object({
  email: emailField,
  otp: otpField,
  rememberMe: z.boolean().optional().default(true),
});
export type VerifyOtpBody = z.input<typeof verifyOtpBody>;

/** The e-mail code screen: the six boxes alone (the address is already known). */
export const otpForm = z.object({ otp: otpField });
export type OtpForm = z.input<typeof otpForm>;

export const emailOnlyBody = z.object({ email: emailField });
export type EmailOnlyBody = z.input<typeof emailOnlyBody>;

export const resetPasswordBody = z.object({
  token: requiredString(v.tokenRequired).min(1, v.tokenRequired).max(512, v.tokenRequired),
  newPassword: passwordField,
});
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

/** The reset form knows nobody's name (the link alone names the account): the API adds them to the check. */
export const resetPasswordForm = checkingStrength(
  confirmedBy(z.object({ newPassword: passwordField, confirmPassword: confirmPasswordField }), 'newPassword', v.passwordsDoNotMatch),
  'newPassword',
  () => ({}),
);
export type ResetPasswordForm = z.input<typeof resetPasswordForm>;

export const changePasswordBody = z.object({
  currentPassword: requiredString(v.currentPasswordRequired).min(1, v.currentPasswordRequired).max(128),
  newPassword: passwordField,
});
export type ChangePasswordBody = z.input<typeof changePasswordBody>;

/** The change form of a signed-in member, whose own address and names the new password must not simply repeat. */
export const changePasswordFormFor = (person: Person) =>
  checkingStrength(
    confirmedBy(changePasswordBody.extend({ confirmPassword: confirmPasswordField }), 'newPassword', v.newPasswordsDoNotMatch),
    'newPassword',
    () => person,
  );
export const changePasswordForm = changePasswordFormFor({});
export type ChangePasswordForm = z.input<typeof changePasswordForm>;

/** The spec's client sends email too; it must equal the current one (e-mail is read-only). */
export const updateProfileBody = z.object({
  firstName: nameField.optional(),
  lastName: nameField.optional(),
  email: emailField.optional(),
  phone: phoneField.optional(),
  locale: localeField.optional(),
});
export type UpdateProfileBody = z.input<typeof updateProfileBody>;

export const verificationRequired = z.object({
  requiresVerification: z.literal(true),
  email: z.string(),
  message: z.string(),
});
export type VerificationRequired = z.infer<typeof verificationRequired>;

/** The answer to a right password on an account with 2FA: no token until the second factor (security.ts). */
export const twoFactorRequired = z.object({ twoFactorRequired: z.literal(true), challenge: z.string() });
export type TwoFactorRequired = z.infer<typeof twoFactorRequired>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const errorResponse = z.object({
  message: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  retryAfter: z.number().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** Public settings the web app shows (GET /api/config). */
export const publicConfigSchema = z.object({
  contactEmail: z.string(),
  contactPhone: z.string(),
  /** The coins paid out (WITHDRAWAL_ASSETS, in that order), each with the flat fee kept from a withdrawal. */
  withdrawalAssets: z.array(z.object({ id: z.string(), name: z.string(), network: z.string(), feeUsd: z.number() })),
  /** PAYOUT_PROVIDER: sandbox, btcpay, nowpayments or manual (manual: an admin types the transaction hash). */
  payoutProvider: z.string(),
  withdrawalFeeUsd: z.number(),
  minWithdrawalUsd: z.number(),
  withdrawalDailyLimitUsd: z.number(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
