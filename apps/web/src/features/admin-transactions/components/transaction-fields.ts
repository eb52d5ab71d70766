import type { AdminTransaction } from '@terrafund/contracts';

/** The first block of a UUID: enough to tell rows apart at a glance; the full id is one click away. */
export const shortId = (id: string) => id.split('-')[0] ?? id;

export const memberName = ({ user }: AdminTransaction) => `${user.firstName} ${user.lastName}`;

/** Only a pending withdrawal waits for an admin (spec section 4). */
export const awaitsDecision = (transaction: AdminTransaction) => transaction.type === 'withdrawal' && transaction.status === 'pending';
