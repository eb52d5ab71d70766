import { format, parseISO } from 'date-fns';
import { formatUsd as formatUsdIn } from '@terrafund/contracts';
import { INTL_LOCALES, type Language } from '@terrafund/contracts/i18n';
import { currentLanguage } from './i18n';

/**
 * Dates and amounts as the app's current language writes them (issue 35: Spanish "1.234,56 US$", French
 * "1 234,56 $US", the day before the month); English exactly as docs/product.md §11.3 Formats says.
 */

/** USD: 2 decimals on the dashboard and wallet, 0 on projects and admin views (docs/product.md §11.3 Formats). */
export function formatUsd(usd: number, decimals: 0 | 2 = 2): string {
  return formatUsdIn(usd, decimals, INTL_LOCALES[currentLanguage()]);
}

function toDate(value: string | Date): Date {
  return typeof value === 'string' ? parseISO(value) : value;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The language's date format (with the time, 24-hour), made once. */
function dateFormat(language: Exclude<Language, 'en'>, withTime: boolean): Intl.DateTimeFormat {
  const key = `${language}/${withTime}`;
  let found = dateFormats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(INTL_LOCALES[language], {
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
    });
    dateFormats.set(key, found);
  }
  return found;
}

/** "Jan 05, 2026" (Spanish "05 ene 2026", French "05 janv. 2026") */
export function formatDate(value: string | Date): string {
  const language = currentLanguage();
  return language === 'en' ? format(toDate(value), 'MMM dd, yyyy') : dateFormat(language, false).format(toDate(value));
}

/** "Jan 05, 2026, 14:30" (Spanish "05 ene 2026, 14:30", French "05 janv. 2026, 14:30") */
export function formatDateTime(value: string | Date): string {
  const language = currentLanguage();
  return language === 'en' ? format(toDate(value), 'MMM dd, yyyy, HH:mm') : dateFormat(language, true).format(toDate(value));
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
