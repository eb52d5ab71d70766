import { describe, expect, it } from 'vitest';
import { centsToUsd, formatCentsFixed, formatCentsUsd, formatUsd, groupThousands, usdToCents } from './money-format';

describe('money helpers', () => {
  it('converts cents and USD both ways, rounding USD to the nearest cent', () => {
    expect(centsToUsd(70000)).toBe(700);
    expect(centsToUsd(1)).toBe(0.01);
    expect(usdToCents(700)).toBe(70000);
    expect(usdToCents(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(usdToCents(40_000.01)).toBe(4_000_001);
    for (const cents of [0, 1, 5, 99, 100, 1005, 123_456_789]) expect(usdToCents(centsToUsd(cents))).toBe(cents);
  });

  it('writes cents as a fixed two-place decimal, exactly as toFixed(2) does for whole cents', () => {
    expect(formatCentsFixed(70000)).toBe('700.00');
    expect(formatCentsFixed(1005)).toBe('10.05');
    expect(formatCentsFixed(7)).toBe('0.07');
    expect(formatCentsFixed(0)).toBe('0.00');
    expect(formatCentsFixed(-5)).toBe('-0.05');
    expect(formatCentsFixed(-12345)).toBe('-123.45');
    for (const cents of [0, 1, 29, 1005, 99_999, 123_456_789, -250]) expect(formatCentsFixed(cents)).toBe((cents / 100).toFixed(2));
  });

  it('writes cents as dollars for people, whole amounts without cents when asked', () => {
    expect(formatCentsUsd(123450)).toBe('$1,234.50');
    expect(formatCentsUsd(500000)).toBe('$5,000.00');
    expect(formatCentsUsd(500000, { wholeWithoutCents: true })).toBe('$5,000');
    expect(formatCentsUsd(500050, { wholeWithoutCents: true })).toBe('$5,000.50');
  });

  // Written out instead of Intl.NumberFormat (its first use is slow on a phone): the same text as Intl gives.
  const intl = (decimals: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  const samples = [0, 0.004, 0.005, 0.01, 0.125, 0.29, 1, 1.005, 2.5, 9.995, 12.345, 99.99, 999.5, 1000, 1234.5, 40_000.01, 999_999.995, 1_234_567.891, 123_456_789.12];

  it.each([0, 2] as const)('writes USD with %i decimals exactly as Intl.NumberFormat does', (decimals) => {
    for (const usd of [...samples, ...samples.map((v) => -v)]) {
      expect(formatUsd(usd, decimals)).toBe(intl(decimals).format(usd).replace(/^-\$0(\.0+)?$/, '$$0$1'));
    }
  });

  it('writes integer cents exactly as Intl.NumberFormat writes the dollars', () => {
    for (const cents of [0, 1, 5, 99, 100, 1005, 12_345, 500_000, 123_456_789, -1, -250, -500_000]) {
      expect(formatCentsUsd(cents)).toBe(intl(2).format(cents / 100));
      if (cents % 100 === 0) expect(formatCentsUsd(cents, { wholeWithoutCents: true })).toBe(intl(0).format(cents / 100));
    }
  });

  it('groups digits by thousands', () => {
    expect(['0', '999', '1000', '123456', '1234567'].map(groupThousands)).toEqual(['0', '999', '1,000', '123,456', '1,234,567']);
  });
});
