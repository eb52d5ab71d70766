import { z } from 'zod';

/**
 * A member's current membership as the dashboard and the user object show it (decisions: memberships end):
 * the active one, or the one that ended last when no pack was bought since. `endsAt` is the moment it ends
 * (the payout time of its last paid day, the last business day on or before activation + 3 years);
 * `endedAt` is that same moment once it has passed, null while the membership runs.
 */
export const membershipViewSchema = z.object({
  pack: z.string(),
  status: z.enum(['active', 'ended']),
  startedAt: z.string(),
  endsAt: z.string(),
  /** The last business day a dividend is paid for, YYYY-MM-DD (UTC). */
  lastPaidDay: z.string(),
  endedAt: z.string().nullable(),
});
export type MembershipView = z.infer<typeof membershipViewSchema>;

/** Days before the end at which the member is told it is coming. */
export const MEMBERSHIP_END_NOTICE_DAYS = 30;
