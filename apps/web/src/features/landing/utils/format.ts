import { formatUsd } from '@/lib/format';

/**
 * The landing page's marketing figures exactly as the spec prints them: whole dollars stay whole ($1,125),
 * fractional ones show their cents ($112.50), so no figure is rounded or padded.
 */
export function formatLandingUsd(value: number) {
  return formatUsd(value, Number.isInteger(value) ? 0 : 2);
}
