import { readFile } from 'node:fs/promises';
import { expect, test } from './support/test';
import { newMember, registerVerified, signIn } from './support/members';

const HEADER = 'Date,Type,Description,Amount (USD),Status,Reference';

test.describe.serial('the bell and the statement', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a member is told their pack is active by the bell, follows it to the wallet and downloads a statement', async ({ page }) => {
    const member = await registerVerified(newMember('bell'));
    await signIn(page, member);

    await test.step('buys Startium through the sandbox checkout', async () => {
      await page.goto('/wallet');
      const radio = page.getByRole('radio', { name: 'Startium', exact: true });
      await radio.locator('xpath=ancestor::label[1]').click();
      await page.getByRole('button', { name: 'Deposit', exact: true }).click();
      await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\/[^/]+$/);
      await page.getByRole('button', { name: 'Pay now' }).click();
      await expect(page).toHaveURL(/\/wallet\/payment\/success$/);
    });

    await test.step('the bell shows one unread notification, opens on it, and closes on Escape', async () => {
      await page.goto('/dashboard');
      const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
      await expect(bell).toBeVisible();
      await expect(bell).toHaveAttribute('aria-expanded', 'false');
      await bell.click();
      await expect(bell).toHaveAttribute('aria-expanded', 'true');
      const list = page.getByRole('list', { name: 'Notifications' });
      await expect(list.getByRole('link')).toHaveCount(1);
      await expect(list.getByRole('link')).toContainText('Your Startium pack is active');
      await page.keyboard.press('Escape');
      await expect(list).toHaveCount(0);
      await expect(bell).toBeFocused();
    });

    await test.step('following the notification marks it read and opens the wallet', async () => {
      await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
      await page.getByRole('list', { name: 'Notifications' }).getByRole('link', { name: /Startium pack is active/ }).click();
      await expect(page).toHaveURL(/\/wallet$/);
      await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
      await expect(page.getByTestId('notifications-badge')).toHaveCount(0);
    });

    await test.step('downloads the statement of today: the header, then the pack purchase', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const form = page.getByRole('form', { name: 'Download statement' });
      await form.getByLabel('From').fill(today);
      await form.getByLabel('To').fill(today);
      const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download statement' }).click()]);
      expect(download.suggestedFilename()).toBe(`terrafund-statement-${today}-to-${today}.csv`);
      const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(HEADER);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T[^,]+,deposit,[^,]*,700\.00,completed,[0-9a-f-]{36}$/);
    });
  });
});
