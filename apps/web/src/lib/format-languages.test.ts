import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatUsd } from './format';
import { switchLanguage } from './i18n';

/** Intl writes a thin or no-break space where a person sees a space. */
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('dates and amounts in the app’s language (issue 35)', () => {
  afterEach(() => switchLanguage('en'));

  const date = new Date(2026, 0, 5, 14, 30);

  it('writes English as docs/product.md §11.3 says', () => {
    expect(formatUsd(1234.56)).toBe('$1,234.56');
    expect(formatUsd(-25)).toBe('-$25.00');
    expect(formatUsd(5000, 0)).toBe('$5,000');
    expect(formatDate(date)).toBe('Jan 05, 2026');
    expect(formatDateTime(date)).toBe('Jan 05, 2026, 14:30');
  });

  it('writes Spanish amounts as "1.234,56 US$", grouped from the thousands, and the day before the month', async () => {
    await switchLanguage('es');
    expect(spaced(formatUsd(1234.56))).toBe('1.234,56 US$');
    expect(spaced(formatUsd(5000, 0))).toBe('5.000 US$');
    expect(spaced(formatDate(date))).toBe('05 ene 2026');
    expect(spaced(formatDateTime(date))).toBe('05 ene 2026, 14:30');
  });

  it('writes French amounts as "1 234,56 $US", and the day before the month', async () => {
    await switchLanguage('fr');
    expect(spaced(formatUsd(1234.56))).toBe('1 234,56 $US');
    expect(spaced(formatUsd(-25))).toBe('-25,00 $US');
    expect(spaced(formatDate(date))).toBe('05 janv. 2026');
    expect(spaced(formatDateTime(date))).toBe('05 janv. 2026, 14:30');
  });

  it('tells the page its language', async () => {
    await switchLanguage('fr');
    expect(document.documentElement.lang).toBe('fr');
  });
});
