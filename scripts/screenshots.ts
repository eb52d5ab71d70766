import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { verificationCode } from '../apps/web/e2e/support/mailbox';
import { fillRegisterForm, newMember, otpBoxes } from '../apps/web/e2e/support/members';
import { expect, test } from '../apps/web/e2e/support/test';

/**
 * Not a check: pictures of the main screens for a person to look at, taken by `npm run screenshots` (the
 * product started as for the browser journeys, with scripts/screenshots.config.ts; E2E_SKIP_BUILD=1 reuses
 * the last build). They go to E2E_SHOTS_DIR, default /tmp/e2e-shots, never into the repository.
 */
const shotsDir = process.env.E2E_SHOTS_DIR ?? '/tmp/e2e-shots';

test.describe('screenshots', () => {
  test.describe.configure({ timeout: 180_000 });

  for (const theme of ['dark', 'light'] as const) {
    for (const size of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      test(`${theme} at ${size.width}px`, async ({ browser }) => {
        mkdirSync(shotsDir, { recursive: true });
        const context = await browser.newContext({ viewport: size, hasTouch: size.width < 500 });
        // about:blank, where a new page starts, has no storage: the choice is set on the app's own pages.
        await context.addInitScript((chosen) => {
          try {
            localStorage.setItem('theme', chosen);
          } catch {
            // about:blank
          }
        }, theme);
        const page = await context.newPage();
        const shot = (name: string, fullPage = false) =>
          page.screenshot({ path: path.join(shotsDir, `${theme}-${size.width}-${name}.png`), fullPage, animations: 'disabled' });

        await page.goto('/');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await shot('landing', true);
        // The long page in screen-high slices too, readable at full size.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0, n = 1; y < height; y += size.height, n += 1) {
          await page.screenshot({
            path: path.join(shotsDir, `${theme}-${size.width}-landing-${n}.png`),
            fullPage: true,
            clip: { x: 0, y, width: size.width, height: Math.min(size.height, height - y) },
            animations: 'disabled',
          });
        }

        await page.goto('/login');
        await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
        await shot('login', true);

        await page.goto('/register');
        await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
        // With the errors showing: the fullest the form gets.
        await page.getByRole('button', { name: 'Create account' }).click();
        await expect(page.getByText('You must agree to the terms and conditions')).toBeVisible();
        await shot('register-errors', true);

        const member = newMember('shots');
        await fillRegisterForm(page, member);
        await shot('register', true);
        await page.getByRole('button', { name: 'Create account' }).click();
        await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
        const code = await verificationCode(member.email);
        await otpBoxes(page).first().click();
        await page.keyboard.type(code.slice(0, 3));
        await shot('code-screen', true);

        await page.keyboard.type(code.slice(3));
        await page.getByRole('button', { name: 'Verify' }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(page.getByRole('heading', { level: 1, name: /Welcome back/ })).toBeVisible();
        // Past the toasts.
        await expect(page.getByRole('status').filter({ hasText: 'Email verified successfully!' })).toBeHidden({ timeout: 8_000 });
        await shot('dashboard', true);
        if (size.width < 500) {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
          await shot('dashboard-menu');
          await page.getByRole('button', { name: 'Close menu' }).click();
        }
        await page.getByRole('button', { name: `${member.firstName} ${member.lastName}` }).click();
        await shot('dashboard-account-menu');
        await context.close();
      });
    }
  }
});
