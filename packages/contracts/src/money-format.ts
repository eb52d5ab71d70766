// Money as numbers and text, without schemas: what a screen needs to show amounts loads no validation code
// (issue 17: a slow phone's first screen). The schemas are in money.ts.

/**
 * Money is integer cents inside the server and USD numbers at the API's edge (docs/product.md §9.1 General).
 * These are the only conversions between the two, and the only ways of writing cents as text.
 */
export const centsToUsd = (cents: number) => cents / 100;

/** A USD amount (at most two decimals, as the schemas accept) in integer cents, rounded to the nearest cent. */
export const usdToCents = (usd: number) => Math.round(usd * 100);

/** Integer cents as a plain decimal with two places, exactly (no float division): 70000 → "700.00", -5 → "-0.05". */
export function formatCentsFixed(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An integer's digits grouped by thousands, en-US style: "1234567" → "1,234,567". */
export const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * A non-negative number rounded to `decimals` places, half up, on its decimal digits as JavaScript writes the
 * number (1.005 → 1.01), as Intl rounds; toFixed alone rounds the binary value (1.005 → "1.00").
 */
function roundHalfUp(value: number, decimals: number): number {
  if (value < 1e-6) return 0; // written with an exponent, and 0 at any number of places shown here
  return Number(`${Math.round(Number(`${value}e${decimals}`))}e-${decimals}`);
}

/**
 * A number en-US style, as `Intl.NumberFormat('en-US')` writes it: digits grouped by thousands, `decimals` places
 * (with `trimZeros`, at most that many: the trailing zeros go), a minus only when something non-zero is shown.
 * Written out rather than with Intl, whose first use loads locale data: tens of milliseconds of a slow phone's
 * first screen (issue 17).
 */
export function formatDecimal(value: number, decimals: number, { trimZeros = false } = {}): string {
  const [whole, fixed = ''] = roundHalfUp(Math.abs(value), decimals).toFixed(decimals).split('.');
  const fraction = trimZeros ? fixed.replace(/0+$/, '') : fixed;
  const negative = value < 0 && /[1-9]/.test(whole! + fraction);
  return `${negative ? '-' : ''}${groupThousands(whole!)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * US dollars for people, en-US style, with `decimals` places: "$1,234.50", "-$25.00". With another `locale`
 * (an `Intl` locale: es-ES, fr-FR), as that locale writes dollars, always grouped by thousands: "1.234,50 US$",
 * "1 234,50 $US" (issue 35; en-US stays written out, without Intl's start-up cost).
 */
export function formatUsd(usd: number, decimals: 0 | 2 = 2, locale = 'en-US'): string {
  if (locale !== 'en-US') return usdFormat(locale, decimals).format(usd);
  const text = formatDecimal(usd, decimals);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

const usdFormats = new Map<string, Intl.NumberFormat>();

/** The locale's dollar format with `decimals` places, made once (making one costs more than using it). */
function usdFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}/${decimals}`;
  let found = usdFormats.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      useGrouping: 'always',
    });
    usdFormats.set(key, found);
  }
  return found;
}

/**
 * Integer cents as US dollars for people: "$1,234.50". With `wholeWithoutCents`, a whole amount drops its
 * cents ("$5,000", but "$5,000.50"): how projects show money (docs/product.md §11.3 Formats).
 */
export function formatCentsUsd(cents: number, options: { wholeWithoutCents?: boolean } = {}): string {
  const abs = Math.abs(cents);
  const whole = `${cents < 0 ? '-' : ''}$${groupThousands(String(Math.floor(abs / 100)))}`;
  return options.wholeWithoutCents && abs % 100 === 0 ? whole : `${whole}.${String(abs % 100).padStart(2, '0')}`;
}
