import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';

/** The toast's entrance, held still at `fraction` of its duration: where its text is then, and how opaque. */
async function holdEntranceAt(page: Page, fraction: number) {
  return page.evaluate((at) => {
    const text = document.querySelector('[role="status"][aria-live="polite"]')!;
    // The bar's one animation while the toast is shown (whatever its keyframes are called).
    const entrance = text.parentElement!.getAnimations()[0]!;
    entrance.pause();
    const duration = Number(entrance.effect!.getComputedTiming().duration);
    entrance.currentTime = duration * at;
    let opacity = 1;
    for (let node: Element | null = text; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
    const box = text.getBoundingClientRect();
    return { opacity, visibility: getComputedStyle(text).visibility, onScreen: box.top >= 0 && box.bottom <= innerHeight };
  }, fraction);
}

test.describe('toasts', () => {
  // A toast is read while it arrives: react-hot-toast's own entrance faded its text in from transparent, and axe
  // measured a toast caught in that third of a second at 1.2:1. The toast now moves in without fading. The entrance
  // is held still at points along its way (a live one is too quick to catch at a chosen moment), and at each one
  // where the toast is already on screen its text is opaque and passes axe's contrast rule.
  for (const theme of ['light', 'dark'] as const) {
    test(`a toast is readable while it arrives (${theme} theme)`, async ({ page }, testInfo) => {
      testInfo.skip(testInfo.project.name !== 'desktop', 'run once, in the desktop project');
      await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
      await page.goto('/forgot-password');
      // An address of its own each time: the reset form is limited per address (5 in 15 minutes).
      await page.getByLabel('Email').fill(`nobody-${theme}-${Date.now()}@example.com`);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      // Once its height is known react-hot-toast shows the toast and its entrance starts.
      await page.waitForFunction(
        () => (document.querySelector('[role="status"][aria-live="polite"]')?.parentElement?.getAnimations().length ?? 0) > 0,
      );
      // The pointer on the toast holds it open (react-hot-toast pauses its timer on hover) while it is measured.
      await page.locator('[role="status"][aria-live="polite"]').hover();
      const measured: number[] = [];
      for (const fraction of [0.1, 0.2, 0.3, 0.5, 0.7, 1]) {
        const held = await holdEntranceAt(page, fraction);
        if (!held.onScreen) continue;
        expect(held, `${fraction * 100}% into the entrance`).toMatchObject({ opacity: 1, visibility: 'visible' });
        const results = await new AxeBuilder({ page }).include('[role="status"]').withRules(['color-contrast']).analyze();
        expect(results.violations, `${fraction * 100}% into the entrance`).toEqual([]);
        // axe did measure the toast's text (text it could not see would pass without being measured).
        expect(results.passes.flatMap((rule) => rule.nodes), `${fraction * 100}% into the entrance`).not.toHaveLength(0);
        measured.push(fraction);
      }
      // Measured while still arriving, not only at rest.
      expect(measured.filter((fraction) => fraction < 1).length).toBeGreaterThanOrEqual(2);
    });
  }
});
