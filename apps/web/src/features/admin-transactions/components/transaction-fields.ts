import type { AdminTransaction } from '@terrafund/contracts';

export const memberName = ({ user }: AdminTransaction) => `${user.firstName} ${user.lastName}`;

/**
 * A pending withdrawal waits for an admin (docs/product.md §5.8 Withdrawals) once its member confirmed it and until
 * it is approved: not while the mailed link is unanswered, nor once approved (waiting for the provider, sent): the
 * server answers 409 to both. A first approval above the dual-approval threshold leaves it awaiting approval.
 */
export const awaitsDecision = (transaction: Pick<AdminTransaction, 'type' | 'status' | 'stage'>) =>
  transaction.type === 'withdrawal' &&
  transaction.status === 'pending' &&
  (transaction.stage === undefined || transaction.stage === 'awaiting_approval');
