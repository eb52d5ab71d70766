import { centsToUsd, usdToCents, type Dashboard, type ProjectionPeriod, type ProjectionPoint } from '@terrafund/contracts';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { memberBalance } from '../ledger';
import { checkMembershipEndOnRead, currentMemberships, isBusinessDay, membershipEnd } from '../memberships';
import { nextPayoutFor } from '../payouts';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Total assets = active pack price + wallet balance + amounts invested (docs/product.md §5.7 Wallet balance and Total Assets). A membership
 * stops counting the moment it ends (membershipEnd), even before the periodic job has marked it ended.
 */
export async function dashboardFor(deps: Deps, user: UserRow): Promise<Dashboard> {
  return (await figuresFor(deps, user)).dashboard;
}

/** The dashboard's figures together with the active membership they were computed from. */
async function figuresFor(deps: Deps, user: UserRow) {
  const [current, wallet, invested, upcoming] = await Promise.all([
    currentMemberships(deps.db, deps, [user.id]).then((m) => m.get(user.id)),
    memberBalance(deps.db, user.id, 'member_wallet'),
    memberBalance(deps.db, user.id, 'member_invested'),
    nextPayoutFor(deps.db, user.id, deps.clock, deps.config.payoutTime),
  ]);
  await checkMembershipEndOnRead(deps, current?.row);
  const membership = current && !current.ended ? current.row : undefined;
  const packCents = membership?.priceCents ?? 0;
  const dashboard: Dashboard = {
    totalAssets: centsToUsd(packCents + wallet + invested),
    walletBalance: centsToUsd(wallet),
    membership: membership?.pack ?? null,
    nextPayout: membership ? upcoming : null,
    currentMembership: current?.view ?? null,
  };
  return { membership, dashboard };
}

const periodEnd = (start: Date, period: ProjectionPeriod): Date => {
  const end = new Date(start);
  if (period === '1W') end.setUTCDate(end.getUTCDate() + 7);
  if (period === '1M') end.setUTCMonth(end.getUTCMonth() + 1);
  if (period === '3M') end.setUTCMonth(end.getUTCMonth() + 3);
  if (period === '1Y') end.setUTCFullYear(end.getUTCFullYear() + 1);
  if (period === '3Y') end.setUTCFullYear(end.getUTCFullYear() + 3);
  return end;
};

/**
 * The projected value of the member's assets, one point a day from today to the end of the period: today's
 * total assets, plus each business day's dividend while the active membership runs. Empty without one.
 */
export async function projectionFor(deps: Deps, user: UserRow, period: ProjectionPeriod): Promise<ProjectionPoint[]> {
  const { membership, dashboard } = await figuresFor(deps, user);
  if (!membership) return [];
  const { totalAssets } = dashboard;
  const { lastPaidDay } = membershipEnd(membership, deps.config.payoutTime);
  const now = deps.clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const end = periodEnd(new Date(today), period).getTime();
  const points: ProjectionPoint[] = [];
  let valueCents = usdToCents(totalAssets);
  for (let t = today; t <= end; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const paid = t > today && isBusinessDay(day) && t > membership.startedAt.getTime() && day <= lastPaidDay;
    if (paid) valueCents += membership.dailyDividendCents;
    points.push({ date: day, value: centsToUsd(valueCents) });
  }
  return points;
}
