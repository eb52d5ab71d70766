import { formatUsd } from '@terrafund/contracts';
import { INTL_LOCALES } from '@terrafund/contracts/i18n';
import { currentLanguage } from '@/lib/i18n';

/**
 * The landing page's marketing figures exactly as the spec prints them: whole dollars stay whole ($1,125),
 * fractional ones show their cents ($112.50), so no figure is rounded or padded; in the language's own way in the
 * others (1.125 US$). Written with the contracts' formatUsd, as lib/format.ts's is, without the date formatting that
 * module carries (the landing page's JavaScript budget, issue 14).
 */
export function formatLandingUsd(value: number) {
  return formatUsd(value, Number.isInteger(value) ? 0 : 2, INTL_LOCALES[currentLanguage()]);
}
