import { describe, expect, it } from 'vitest';
import { formatCountdown, pickTicks } from './countdown';

describe('formatCountdown', () => {
  it('shows HH:MM:SS under a day and Nd HH:MM:SS from a day up', () => {
    expect(formatCountdown(59)).toBe('00:00:59');
    expect(formatCountdown(3 * 3600 + 5 * 60 + 10)).toBe('03:05:10');
    expect(formatCountdown(86_399)).toBe('23:59:59');
    expect(formatCountdown(86_400)).toBe('1d 00:00:00');
    expect(formatCountdown(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)).toBe('2d 03:04:05');
  });

  it('has nothing to count at zero or below', () => {
    expect(formatCountdown(0)).toBeNull();
    expect(formatCountdown(-5)).toBeNull();
    expect(formatCountdown(Number.NaN)).toBeNull();
  });
});

describe('pickTicks', () => {
  it('keeps every value up to the limit', () => {
    expect(pickTicks([1, 2, 3], 7)).toEqual([1, 2, 3]);
  });

  it('spreads at most 7 ticks from the first value to the last', () => {
    const days = Array.from({ length: 31 }, (_, i) => i);
    const ticks = pickTicks(days, 7);
    expect(ticks).toHaveLength(7);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBe(30);
    expect(pickTicks(Array.from({ length: 1096 }, (_, i) => i), 7)).toHaveLength(7);
    expect(pickTicks(Array.from({ length: 8 }, (_, i) => i), 7).length).toBeLessThanOrEqual(7);
  });
});
