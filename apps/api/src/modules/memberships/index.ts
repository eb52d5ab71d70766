/** What other modules may use of memberships: the calendar and end rules, what the API shows, the end job's work. */
export {
  businessDayUpTo,
  currentMemberships,
  DAY_MS,
  dayStart,
  dayString,
  dueAt,
  hasEnded,
  isBusinessDay,
  lastDueDay,
  membershipEnd,
  membershipView,
  newMembershipValues,
  packName,
  parsePayoutTime,
  type CurrentMembership,
} from './membership.service';
export {
  checkMembershipEndOnRead,
  endMembership,
  runMembershipEnds,
  type MembershipEndDeps,
  type MembershipEndResult,
} from './membership-end.service';
