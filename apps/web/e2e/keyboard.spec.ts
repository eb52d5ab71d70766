import { signIn } from './support/members';
import { fundedMember } from './support/money';
import { expect, test, type Page } from './support/test';

/** What has focus now: its tag, name and whether something is drawn around it (an outline or a ring). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    // A control drawn by a sibling (the checkbox's box) shows focus there.
    const drawn = element.nextElementSibling ? getComputedStyle(element.nextElementSibling) : null;
    const sibling = drawn ? drawn.outlineStyle !== 'none' && parseFloat(drawn.outlineWidth) > 0 : false;
    // A card holding the focused radio (has-focus-visible) shows it.
    const holder = element.closest('label');
    const around = holder ? getComputedStyle(holder).outlineStyle !== 'none' : false;
    return {
      what: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`,
      visible: outline || ring || sibling || around,
    };
  });

/** Tabs through the first `count` stops of the page and lists those that show no focus indicator. */
async function stopsWithoutFocusIndicator(page: Page, count: number) {
  const missing: string[] = [];
  for (let i = 0; i < count; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now && !now.visible) missing.push(now.what);
  }
  return missing;
}

test.describe('keyboard', () => {
  test('every stop on the public screens and the dashboard shows where focus is', async ({ page }) => {
    for (const path of ['/', '/login', '/register', '/forgot-password']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await stopsWithoutFocusIndicator(page, 25), `focus not drawn on ${path}`).toEqual([]);
    }
    await signIn(page, fundedMember());
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome back/ })).toBeVisible();
    expect(await stopsWithoutFocusIndicator(page, 25), 'focus not drawn on /dashboard').toEqual([]);
  });

  test('a form sent with errors moves focus to the first invalid field, which names its error', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('First name').focus();
    await page.keyboard.type('Ada');
    // By keyboard to the submit button, past every field.
    await page.getByRole('button', { name: 'Create account' }).focus();
    await page.keyboard.press('Enter');
    const lastName = page.getByLabel('Last name');
    await expect(lastName).toBeFocused();
    await expect(lastName).toHaveAttribute('aria-invalid', 'true');
    await expect(lastName).toHaveAccessibleDescription(/.+/);
    await expect(page.getByLabel('First name')).not.toHaveAttribute('aria-invalid', 'true');
  });

  test('a dialog takes focus, keeps Tab inside, closes on Escape and gives focus back', async ({ page }) => {
    await page.goto('/register');
    const opener = page.getByRole('button', { name: 'terms and conditions' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Terms and Conditions' });
    await expect(dialog).toBeVisible();
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

    // Forwards and backwards, focus never leaves the dialog.
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `focus after ${key}`).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });
});
