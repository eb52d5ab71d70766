import { and, eq, isNull, sql } from 'drizzle-orm';
import { formatCentsFixed } from '@terrafund/contracts';
import { queryRows, type Executor } from '../../db/client';
import { notificationPreferences, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { walletBalancesOf } from '../ledger';
import { enqueueMail } from '../mail';

type MailDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config' | 'mailQueued'>;

/**
 * "Dividends paid" (issue 34): after a payout run, one mail to each opted-in member whom it paid, with the amount
 * and the wallet balance, never one per day caught up: each mail covers the payouts written since the member's last
 * one (notification_preferences.dividends_mailed_through). Run after every payout run (the scheduler's and
 * POST /api/admin/payouts/run); each member's preference row is locked while mailed (SKIP LOCKED), so two servers
 * never mail one payout twice. Answers how many mails were queued.
 */
export async function mailDividendsPaid(deps: MailDeps): Promise<number> {
  const candidates = await queryRows<{ user_id: string }>(deps.db, sql`
    select distinct np.user_id
    from notification_preferences np
    join users u on u.id = np.user_id and u.closed_at is null and u.deleted_at is null
    join memberships m on m.user_id = np.user_id
    join dividend_payouts dp on dp.membership_id = m.id
      and dp.created_at > coalesce(np.dividends_mailed_through, '-infinity'::timestamptz)
    where np.dividends`);
  let queued = 0;
  for (const { user_id: userId } of candidates) {
    const sent = await deps.db.transaction(async (tx) => {
      const [pref] = await tx
        .select()
        .from(notificationPreferences)
        .where(eq(notificationPreferences.userId, userId))
        .for('update', { skipLocked: true });
      if (!pref?.dividends) return false;
      const [paid] = await queryRows<{ total: string | null; days: number; last: Date | string | null }>(tx, sql`
        select sum(dp.amount_cents)::text as total, count(distinct dp.business_day)::int as days, max(dp.created_at) as last
        from dividend_payouts dp join memberships m on m.id = dp.membership_id
        where m.user_id = ${userId} and dp.created_at > coalesce(${pref.dividendsMailedThrough?.toISOString() ?? null}::timestamptz, '-infinity'::timestamptz)`);
      if (!paid?.total || !paid.last) return false;
      const [member] = await tx.select().from(users).where(and(eq(users.id, userId), isNull(users.closedAt))).limit(1);
      await tx
        .update(notificationPreferences)
        .set({ dividendsMailedThrough: new Date(paid.last) })
        .where(eq(notificationPreferences.userId, userId));
      if (!member) return false;
      const balance = (await walletBalancesOf(tx, [userId])).get(userId) ?? 0;
      return enqueueMail(tx, deps, member.email, 'dividendsPaid', {
        firstName: member.firstName,
        amount: formatCentsFixed(Number(paid.total)),
        days: paid.days,
        balance: formatCentsFixed(balance),
        walletUrl: `${deps.config.publicUrl}/wallet`,
      });
    });
    if (sent) queued += 1;
  }
  if (queued > 0) deps.mailQueued();
  return queued;
}

/**
 * "New projects", the marketing kind (issue 34): an admin created a project open for investment, so every member who
 * opted in is mailed once, in the transaction that creates it (the mail exists exactly when the project does).
 */
export async function mailNewProject(
  tx: Executor,
  deps: Pick<Deps, 'clock' | 'secrets' | 'config'>,
  project: { id: string; title: string; location: string },
): Promise<number> {
  const members = await tx
    .select({ email: users.email, firstName: users.firstName })
    .from(notificationPreferences)
    .innerJoin(users, eq(users.id, notificationPreferences.userId))
    .where(and(eq(notificationPreferences.projects, true), isNull(users.closedAt), isNull(users.deletedAt), eq(users.role, 'user')));
  let queued = 0;
  for (const member of members) {
    const sent = await enqueueMail(tx, deps, member.email, 'newProject', {
      firstName: member.firstName,
      project: project.title,
      location: project.location,
      projectUrl: `${deps.config.publicUrl}/projects/${project.id}`,
    });
    if (sent) queued += 1;
  }
  return queued;
}
