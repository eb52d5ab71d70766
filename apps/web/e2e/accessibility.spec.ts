import { visitEveryScreen } from './support/screens';
import { expectNoSeriousViolations } from './support/axe';
import { test } from './support/test';

test.describe('accessibility (axe, WCAG 2.2 AA)', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`every screen in the ${theme} theme has no serious or critical violation`, async ({ browser, problems }, testInfo) => {
      testInfo.skip(testInfo.project.name !== 'desktop', 'run once, in the desktop project');
      // Every screen of the member and the admin, axe on each: minutes on a busy 2-core machine.
      test.setTimeout(600_000);
      await visitEveryScreen(browser, { problems, theme, viewport: { width: 1366, height: 900 } }, async (page, name) => {
        await test.step(`${name} (${theme})`, () => expectNoSeriousViolations(page, `${name}, ${theme}`));
      });
    });
  }
});
