import { and, eq, lte, sql } from 'drizzle-orm';
import { MEMBERSHIP_END_NOTICE_DAYS } from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { membershipReminders, memberships, users, type MembershipRow, type UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { memberAccount, platformAccount, postEntry } from '../ledger';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';
import { DAY_MS, membershipEnd, packName } from './membership.service';

/**
 * The end of memberships (decisions: memberships end), run by the payout scheduler (jobs/payout-scheduler.ts)
 * after each payout run, at start, at PAYOUT_TIME and every 15 minutes, and by POST /api/admin/payouts/run. A
 * membership ends at the payout time of its last paid day (membershipEnd in membership.service.ts, the one
 * definition); readers (dashboard, profile) go by that instant, so this job only keeps the stored rows in step
 * and mails:
 *
 * - a membership whose end has passed is marked `ended` and its price leaves member_pack for
 *   platform_packs_retired (member_pack always holds the active pack's price), in one transaction;
 * - the member is mailed MEMBERSHIP_END_NOTICE_DAYS days before the end ("ends in N days") and at the end
 *   ("has ended"), once each. A server that was down at that moment mails when it runs again: a late "ends in
 *   N days" (N the days really left), or only "has ended" when the end has passed too (a warning about an end
 *   already past would be untrue).
 *
 * Once. Each mail is queued in the transaction that inserts its membership_reminders row, whose primary key
 * (membership, kind) refuses a second one: two servers, two timers or a rerun that look at the same membership
 * at once queue one mail between them (the second insert waits for the first transaction and then inserts
 * nothing). The member's notification (the bell) is written next to the mail, in remindMember.
 */

export type MembershipEndDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config' | 'logger' | 'mailQueued'>;
export type MembershipEndResult = { ended: number; reminders: number };
type ReminderDeps = Pick<Deps, 'clock' | 'secrets' | 'config'>;

type Reminder = { kind: 'ending_soon'; daysLeft: number } | { kind: 'ended' };

/** Sends one reminder about a membership to its member, at most once (see above). Answers whether it was sent now. */
async function remindMember(tx: Executor, deps: ReminderDeps, member: UserRow, membership: MembershipRow, reminder: Reminder) {
  const now = deps.clock.now();
  const claimed = await tx
    .insert(membershipReminders)
    .values({ membershipId: membership.id, kind: reminder.kind, sentAt: now })
    .onConflictDoNothing()
    .returning({ kind: membershipReminders.kind });
  if (claimed.length === 0 || member.deletedAt) return false;
  const end = membershipEnd(membership, deps.config.payoutTime);
  const common = {
    firstName: member.firstName,
    pack: packName(membership.pack),
    lastPaidDay: end.lastPaidDay,
    walletUrl: `${deps.config.publicUrl}/wallet`,
  };
  // The bell says what the mail says, in the same transaction, under the same once-only claim.
  if (reminder.kind === 'ending_soon') {
    await enqueueMail(tx, deps, member.email, 'membershipEndingSoon', { ...common, daysLeft: reminder.daysLeft });
    await notify(tx, deps, member.id, 'membership.ending', { pack: common.pack, endsOn: end.lastPaidDay, daysLeft: reminder.daysLeft }, `membership.ending:${membership.id}`);
  } else {
    await enqueueMail(tx, deps, member.email, 'membershipEnded', common);
    await notify(tx, deps, member.id, 'membership.ended', { pack: common.pack, endedOn: end.lastPaidDay }, `membership.ended:${membership.id}`);
  }
  return true;
}

/**
 * Ends a membership whose end has passed: marks it `ended` (if it is still `active`: another run may have done
 * it first) and retires its price from member_pack (a membership bought by a settled deposit holds its price
 * there; one created otherwise holds none), then mails the member that it has ended (once, see remindMember).
 * Runs in the caller's transaction: the job's, or a settlement's that renews the membership.
 */
export async function endMembership(tx: Executor, deps: ReminderDeps, membership: MembershipRow, member: UserRow) {
  const [ended] = await tx
    .update(memberships)
    .set({ status: 'ended' })
    .where(and(eq(memberships.id, membership.id), eq(memberships.status, 'active')))
    .returning({ id: memberships.id });
  if (ended && membership.depositTransactionId) {
    const packAccount = await memberAccount(tx, membership.userId, 'member_pack');
    const retired = await platformAccount(tx, 'platform_packs_retired');
    await postEntry(tx, deps, {
      kind: 'pack_retired',
      idempotencyKey: `pack-retired:${membership.id}`,
      description: `${packName(membership.pack)} pack ended`,
      metadata: { membershipId: membership.id, ended: true },
      lines: [
        { accountId: packAccount, amountCents: -membership.priceCents },
        { accountId: retired, amountCents: membership.priceCents },
      ],
    });
  }
  const reminded = await remindMember(tx, deps, member, membership, { kind: 'ended' });
  return { ended: ended !== undefined, reminded };
}

/**
 * A safety net for a clock that jumped (or a scheduler that has not run yet): when a member's dashboard is read
 * within MEMBERSHIP_END_NOTICE_DAYS of the end of their active membership, or after it, their part of the job
 * runs before the answer (no work is left in memory after an answer: a killed server would lose it). It sends
 * nothing the job would not; the reminders table keeps it once.
 */
export async function checkMembershipEndOnRead(deps: MembershipEndDeps, membership: MembershipRow | undefined) {
  if (!membership || membership.status !== 'active') return;
  const { endedAt } = membershipEnd(membership, deps.config.payoutTime);
  if (deps.clock.now().getTime() < endedAt.getTime() - MEMBERSHIP_END_NOTICE_DAYS * DAY_MS) return;
  await runMembershipEnds(deps, { userId: membership.userId });
}

/** Ends the memberships whose end has passed and sends the reminders that are due (see above); of one member with `userId`. */
export async function runMembershipEnds(deps: MembershipEndDeps, only: { userId?: string } = {}): Promise<MembershipEndResult> {
  const now = deps.clock.now();
  // A membership ends between 3 days before its ends_at (a weekend moves the last paid day back to Friday) and a
  // day after it (PAYOUT_TIME on that day): these are all that can be due, a superset filtered below by the
  // exact rule.
  const horizon = new Date(now.getTime() + (MEMBERSHIP_END_NOTICE_DAYS + 4) * DAY_MS);
  const candidates = await deps.db
    .select({
      membership: memberships,
      member: users,
      warned: sql<boolean>`exists (select 1 from ${membershipReminders} r where r.membership_id = ${memberships.id} and r.kind = 'ending_soon')`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        only.userId ? eq(memberships.userId, only.userId) : undefined,
        // memberships_active_ends_idx: the sweep reads only the memberships near their end.
        eq(memberships.status, 'active'),
        lte(memberships.endsAt, horizon),
      ),
    )
    .orderBy(memberships.endsAt);

  const result: MembershipEndResult = { ended: 0, reminders: 0 };
  for (const { membership, member, warned } of candidates) {
    const { endedAt } = membershipEnd(membership, deps.config.payoutTime);
    const msLeft = endedAt.getTime() - now.getTime();
    if (msLeft <= 0) {
      await deps.db.transaction(async (tx) => {
        const done = await endMembership(tx, deps, membership, member);
        if (done.ended) result.ended += 1;
        if (done.reminded) result.reminders += 1;
      });
    } else if (!warned && msLeft <= MEMBERSHIP_END_NOTICE_DAYS * DAY_MS) {
      const daysLeft = Math.ceil(msLeft / DAY_MS);
      await deps.db.transaction(async (tx) => {
        if (await remindMember(tx, deps, member, membership, { kind: 'ending_soon', daysLeft })) result.reminders += 1;
      });
    }
  }
  if (result.reminders > 0) deps.mailQueued();
  if (result.ended > 0 || result.reminders > 0) deps.logger.info(result, 'memberships ended and reminded');
  return result;
}
