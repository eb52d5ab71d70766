/** Services read time from a clock so tests move time instead of sleeping (conventions habit 5). */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export function fixedClock(start: Date | string = '2026-01-05T12:00:00Z') {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(date: Date | string) {
      current = new Date(date);
    },
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
    },
  };
}
export type FixedClock = ReturnType<typeof fixedClock>;
