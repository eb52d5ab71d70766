import type { AdminTransaction } from '@terrafund/contracts';


export const memberName = ({ user }: AdminTransaction) => `${user.firstName} ${user.lastName}`;

/** Only a pending withdrawal waits for an admin (spec section 4). */
export const awaitsDecision = (transaction: AdminTransaction) => transaction.type === 'withdrawal' && transaction.status === 'pending';
