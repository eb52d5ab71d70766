import { describe, expect, it } from 'vitest';
import { centsToUsd, formatCentsFixed, formatCentsUsd, usdToCents } from './money';

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
});
