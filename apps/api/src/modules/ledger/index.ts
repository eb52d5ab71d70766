/** What other modules may use of the ledger. */
export {
  checkLedger,
  memberAccount,
  memberBalance,
  platformAccount,
  postEntry,
  type LedgerProblem,
  type MemberAccountKind,
  type PlatformAccountKind,
} from './ledger.service';
