import { describe, expect, it } from 'vitest';
import { formatPercent } from './project-figures';

describe('formatPercent', () => {
  // Written out instead of Intl.NumberFormat (slow on a phone's first use): the same text as Intl gives.
  const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

  it('writes at most two decimals, none that are zero, exactly as Intl.NumberFormat does', () => {
    for (const value of [0, 0.5, 1, 8.5, 8.504, 8.505, 10, 12.25, 99.999, 100, 1250.25, 104, 111, -3.75]) {
      expect(formatPercent(value)).toBe(`${intl.format(value)}%`);
    }
  });
});
