import type { AdminTransaction } from '@terrafund/contracts';


export const memberName = ({ user }: AdminTransaction) => `${user.firstName} ${user.lastName}`;

/** Only a pending withdrawal waits for an admin (docs/product.md §5.8 Withdrawals). */
export const awaitsDecision = (transaction: AdminTransaction) => transaction.type === 'withdrawal' && transaction.status === 'pending';
