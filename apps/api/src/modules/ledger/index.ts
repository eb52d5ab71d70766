/** What other modules may use of the ledger. */
export {
  checkBooks,
  InsufficientBalanceError,
  memberAccount,
  memberBalance,
  platformAccount,
  platformBalance,
  postEntry,
  type LedgerProblem,
  type MemberAccountKind,
  type PlatformAccountKind,
  walletBalancesOf,
} from './ledger.service';
