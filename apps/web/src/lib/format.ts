import { format, parseISO } from 'date-fns';

/** USD in en-US style: 2 decimals on the dashboard and wallet, 0 on projects and admin views (docs/product.md §11.3 Formats). */
export { formatUsd } from '@terrafund/contracts';

function toDate(value: string | Date): Date {
  return typeof value === 'string' ? parseISO(value) : value;
}

/** "Jan 05, 2026" */
export function formatDate(value: string | Date): string {
  return format(toDate(value), 'MMM dd, yyyy');
}

/** "Jan 05, 2026, 14:30" */
export function formatDateTime(value: string | Date): string {
  return format(toDate(value), 'MMM dd, yyyy, HH:mm');
}

/** The initials shown in the avatar: "Jane Doe" → "JD". */
export function getInitials(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
}

/**
 * The last eight hex digits of a UUID: enough to tell rows apart at a glance (the full id is one click away).
 * The tail, not the first block: ids written by the payout job are UUID version 7, whose first block is the
 * time, the same for every row written within a minute; the tail is random in every version.
 */
export const shortId = (id: string) => id.slice(-8);
