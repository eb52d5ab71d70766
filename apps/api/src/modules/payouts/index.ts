/** What other modules may use of payouts: the daily run, the next payout of a member, the ledger report's payout checks. */
export { msUntilNextPayout, nextPayoutFor, runPayouts, type NextPayout, type PayoutOptions, type PayoutRunResult } from './payouts.service';
export { checkPayoutDays, checkPayouts, lastPaidBusinessDay, NEW_ID_SQL, PASS_WORK_MEM, PAYOUT_LOCK_ID } from './payouts.repository';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { payoutRoutes } from './payouts.routes';
