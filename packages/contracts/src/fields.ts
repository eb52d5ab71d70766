import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NAME_MIN_LENGTH,
  OTP_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_MAX_LENGTH,
} from './constants';
import { messages } from './messages';

const v = messages.validation;

/** A string field whose absence (or wrong type) reads as "required" with the given message. */
export const requiredString = (requiredMessage: string) =>
  z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? requiredMessage : v.invalidInput),
  });

/** The spec's "simple address pattern": something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailField = requiredString(v.emailRequired)
  .trim()
  .min(1, v.emailRequired)
  .max(EMAIL_MAX_LENGTH, v.emailInvalid)
  .regex(EMAIL_PATTERN, v.emailInvalid);

/** The one password rule (docs/product.md §3.6 Passwords): at least 8 characters, everywhere. */
export const passwordField = requiredString(v.passwordRequired)
  .min(1, v.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, v.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, v.passwordTooLong);

export const nameField = requiredString(v.nameRequired)
  .trim()
  .min(1, v.nameRequired)
  .min(NAME_MIN_LENGTH, v.nameTooShort)
  .max(NAME_MAX_LENGTH, v.nameTooLong);

/** The spec keeps phone optional at registration; when given it must look like a phone number. */
export const phoneField = z
  .string({ error: v.phoneInvalid })
  .trim()
  .max(PHONE_MAX_LENGTH, v.phoneInvalid)
  .regex(/^$|^\+?[0-9 ()\-.]{6,}$/, v.phoneInvalid);

export const otpField = requiredString(v.otpIncomplete)
  .trim()
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), v.otpIncomplete);

/** Ids travel as strings; a malformed one is simply not found (404), never a 400 or a 500. */
export const idParam = z.object({ id: z.string().max(200) });
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
