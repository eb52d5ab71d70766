const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Seconds left as "HH:MM:SS", or "Nd HH:MM:SS" from one day up; null at zero or below. `withDays` words the days in
 * the screen's language ("3j 01:02:03" in French).
 */
export function formatCountdown(
  totalSeconds: number,
  withDays: (days: number, hms: string) => string = (days, hms) => `${days}d ${hms}`,
): string | null {
  if (!Number.isFinite(totalSeconds) || totalSeconds <= 0) return null;
  const s = Math.floor(totalSeconds);
  const days = Math.floor(s / 86_400);
  const hms = `${pad(Math.floor((s % 86_400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return days > 0 ? withDays(days, hms) : hms;
}

/** At most `max` ticks, spread evenly, always including the first and the last point. */
export function pickTicks<T>(values: readonly T[], max = 7): T[] {
  if (values.length <= max) return [...values];
  const picked = new Set<number>();
  for (let i = 0; i < max; i += 1) picked.add(Math.round((i * (values.length - 1)) / (max - 1)));
  return [...picked].sort((a, b) => a - b).map((i) => values[i] as T);
}
