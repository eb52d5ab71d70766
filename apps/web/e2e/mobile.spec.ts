import { expect, test, type Page } from '@playwright/test';
import { newMember, registerVerified, signIn, type Member } from './support/members';

/**
 * Phone-width journeys. The 'mobile' project (390×844) picks them by the @mobile tag; the desktop project
 * runs every file, so they skip themselves there.
 */
test.describe('on a phone @mobile', () => {
  let member: Member;
  test.beforeAll(async ({ browserName: _ }, testInfo) => {
    testInfo.skip(testInfo.project.name !== 'mobile', 'phone-width journey: runs in the mobile project');
    member = await registerVerified(newMember('mobile'));
  });

  const pageWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

  test('no page is wider than the screen', async ({ page }) => {
    const width = page.viewportSize()!.width;
    for (const [path, heading] of [
      ['/', 'Own a share of premium real estate'],
      ['/login', 'Welcome back'],
      ['/register', 'Create your account'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      expect(await pageWidth(page), `width of ${path}`).toBeLessThanOrEqual(width);
    }

    await signIn(page, member);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` })).toBeVisible();
    expect(await pageWidth(page), 'width of /dashboard').toBeLessThanOrEqual(width);
  });

  test('the sidebar stays hidden until the top-bar menu button opens it over an overlay', async ({ page }) => {
    await signIn(page, member);
    const links = ['Dashboard', 'Plan', 'KYC Verification'];

    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const open = page.getByRole('button', { name: 'Open menu' });
    await expect(open).toBeVisible();

    await open.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(links);
    await expect(drawer.getByRole('button', { name: 'Close menu' })).toBeFocused();
    // Beside the drawer, the page is covered by the overlay, not reachable.
    const beside = await page.evaluate(() => {
      const element = document.elementFromPoint(window.innerWidth - 15, window.innerHeight / 2)!;
      return { inPage: Boolean(element.closest('#main, header')), inDrawer: Boolean(element.closest('[role="dialog"]')) };
    });
    expect(beside).toEqual({ inPage: false, inDrawer: false });

    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

    // A tap on the overlay closes it too, and so does following a link.
    await open.click();
    await expect(drawer).toBeVisible();
    await page.mouse.click(page.viewportSize()!.width - 15, 400);
    await expect(drawer).toBeHidden();

    await open.click();
    await drawer.getByRole('link', { name: 'Plan' }).click();
    await expect(page).toHaveURL(/\/wallet$/);
    await expect(drawer).toBeHidden();
    // The drawer closed on the way; reopened, it marks Plan as the current page.
    await open.click();
    await expect(drawer.getByRole('link', { name: 'Plan' })).toHaveAttribute('aria-current', 'page');
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
  });
});
