/**
 * What every provider adapter needs to read and write a provider's wire format, whatever the provider and
 * whichever way the money goes (deposits here, payouts in modules/withdrawals): amounts as providers write
 * them, headers, HMAC signatures, JSON that may not be JSON, and ids that may be numbers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatCentsFixed } from '@terrafund/contracts';

export type NotificationHeaders = Record<string, string | string[] | undefined>;

/**
 * A provider's decimal amount ("700.00", "700", 700.5) as integer cents, by string arithmetic so no float
 * rounding can creep in. Null for anything that is not a non-negative amount exact to the cent.
 */
export function decimalToCents(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (/[^0]/.test(fraction.slice(2))) return null;
  const cents = Number(whole + fraction.slice(0, 2).padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Integer cents as the decimal string providers take: 70000 → "700.00". */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`amount must be non-negative integer cents, got ${cents}`);
  return formatCentsFixed(cents);
}

/** A header by name, whatever its case; the first value when repeated. */
export function headerValue(headers: NotificationHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

export const hmacHex = (algorithm: 'sha256' | 'sha512', key: string, data: Buffer | string): string =>
  createHmac(algorithm, key).update(data).digest('hex');

/** Compares a presented hex signature with the expected one in constant time; false for any malformed input. */
export function hexSignatureMatches(expectedHex: string, presentedHex: string | undefined): boolean {
  if (!presentedHex || !/^[0-9a-fA-F]+$/.test(presentedHex)) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  const presented = Buffer.from(presentedHex, 'hex');
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: Buffer | string): unknown {
  try {
    return JSON.parse(text.toString());
  } catch {
    return undefined;
  }
}

/** Provider ids arrive as strings or numbers (NOWPayments payment_id): always strings inside. */
export function idString(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
