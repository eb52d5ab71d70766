import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The rules of WCAG 2.0, 2.1 and 2.2, levels A and AA (issue 17). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on what `page` shows and fails (softly: every screen of a tour is still checked) when it finds a
 * serious or critical violation, listing each rule with the elements it failed on and why.
 */
export async function expectNoSeriousViolations(page: Page, name: string) {
  // Past transitions and animations (a dialog fading in, a toast arriving) so that colours are measured as they
  // end; endless ones (a spinner) are not waited for. A fixed pause was not enough on a slow host.
  await page.waitForTimeout(50);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious
    .map((v) =>
      [
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`,
        ...v.nodes.slice(0, 8).map((node) => `    ${node.target.join(' ')}\n      ${node.failureSummary?.replace(/\n/g, '\n      ')}`),
        ...(v.nodes.length > 8 ? [`    … and ${v.nodes.length - 8} more`] : []),
      ].join('\n'),
    )
    .join('\n');
  expect.soft(serious.length, `axe on "${name}" (${page.url()}):\n${report}`).toBe(0);
}
