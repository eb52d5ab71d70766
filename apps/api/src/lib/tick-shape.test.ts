import { describe, expect, it } from 'vitest';
import { keepTickShape, keptTickEntries } from './tick-shape';

describe('keepTickShape', () => {
  it('keeps two tick queue entries (with and without arguments), once however often it is called', () => {
    keepTickShape();
    keepTickShape();
    expect(keptTickEntries()).toBe(2);
  });

  it('ticks queued afterwards still run, with their arguments and in order', async () => {
    keepTickShape();
    const ran: number[] = [];
    await new Promise<void>((resolve) => {
      process.nextTick(() => ran.push(1));
      process.nextTick((value: number) => ran.push(value), 2);
      process.nextTick(() => resolve());
    });
    expect(ran).toEqual([1, 2]);
  });
});
