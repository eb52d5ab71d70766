import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './support/test';

test.describe('toasts', () => {
  // A toast is read while it arrives: react-hot-toast's own entrance faded its text in from transparent, and axe
  // measured a toast caught in that third of a second at 1.2:1. The toast now moves in without fading.
  for (const theme of ['light', 'dark'] as const) {
    test(`a toast is readable while it arrives (${theme} theme)`, async ({ page }, testInfo) => {
      testInfo.skip(testInfo.project.name !== 'desktop', 'run once, in the desktop project');
      await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      const toast = page.locator('[role="status"][aria-live="polite"]').first();
      // Once its height is known react-hot-toast shows the toast and starts its entrance: measure at once.
      await page.waitForFunction(() => {
        const bar = document.querySelector('[role="status"][aria-live="polite"]')?.parentElement;
        return !!bar && bar.style.animation !== '';
      });
      // Shown, where it can be seen, and opaque all through its entrance.
      const seen = await toast.evaluate((element) => {
        let opacity = 1;
        for (let node: Element | null = element; node; node = node.parentElement) {
          opacity *= Number(getComputedStyle(node).opacity);
        }
        return { opacity, visibility: getComputedStyle(element).visibility };
      });
      expect(seen).toMatchObject({ opacity: 1, visibility: 'visible' });
      const results = await new AxeBuilder({ page }).include('[role="status"]').withRules(['color-contrast']).analyze();
      expect(results.violations).toEqual([]);
      // axe did measure the toast's text (an element hidden by then would pass without being measured).
      expect(results.passes.flatMap((rule) => rule.nodes)).not.toHaveLength(0);
    });
  }
});
