import { z } from 'zod';
import { cursorPage, cursorQuery } from './list-fields';
import { mailMessages } from './mail-messages';

/**
 * Undeliverable mail (docs/operations.md, "Mail"): mail the outbox tried for 24 hours without getting it through,
 * kept for an admin to see and send again. Its messages are in mail-messages.ts, a module without schemas.
 */
export { mailMessages };

export const UNDELIVERABLE_MAIL_PAGE = 50;

export const undeliverableMailSchema = z.object({
  id: z.string(),
  recipient: z.string(),
  subject: z.string(),
  /** Which mail it is (verificationCode, withdrawalCompleted, …). */
  template: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  firstFailedAt: z.string().nullable(),
  resendable: z.boolean(),
});
export type UndeliverableMail = z.infer<typeof undeliverableMailSchema>;

export const undeliverableMailPageSchema = cursorPage(undeliverableMailSchema, {
  /** How many mails are undeliverable in all (the count /metrics reports). */
  total: z.number().int(),
});
export type UndeliverableMailPage = z.infer<typeof undeliverableMailPageSchema>;

export const undeliverableMailQuery = cursorQuery(mailMessages.cursorInvalid);

export const resendMailResponse = z.object({ id: z.string(), message: z.string() });
