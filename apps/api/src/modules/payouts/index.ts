/** What other modules may use of payouts: the daily run, the next payout of a member, the ledger's payout check. */
export { msUntilNextPayout, nextPayoutFor, runPayouts, type NextPayout, type PayoutOptions, type PayoutRunResult } from './payouts.service';
export { checkPayouts, NEW_ID_SQL, PASS_WORK_MEM, PAYOUT_LOCK_ID } from './payouts.repository';
