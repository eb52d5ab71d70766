/** What other modules may use of the ledger. */
export {
  checkLedger,
  InsufficientBalanceError,
  memberAccount,
  memberBalance,
  platformAccount,
  postEntry,
  type LedgerProblem,
  type MemberAccountKind,
  type PlatformAccountKind,
  walletBalancesOf,
} from './ledger.service';
