import { expect, test } from './support/test';
import { appReady, waitForScrollToSettle } from './support/members';

test.describe('theme and landing page', () => {
  test('dark by default; the light choice is remembered across a reload and a navigation', async ({ page }) => {
    const html = page.locator('html');
    await page.goto('/');
    await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);

    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();

    await page.reload();
    await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
    await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);

    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
    await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();

    // And back to dark from the sign-in screen's own toggle.
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  });

  test('the drawn page lays out only its first screen until the app starts, then the whole page', async ({ page }) => {
    await page.goto('/');
    const contentVisibility = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('#root main > section, #root footer')].map((element) => getComputedStyle(element).contentVisibility),
      );
    // The hero is drawn; the sections under it and the footer wait until they come near the screen (index.css).
    await expect(page.locator('#root[data-prerendered]')).toHaveCount(1);
    expect(await contentVisibility()).toEqual(['visible', 'auto', 'auto', 'auto', 'auto', 'auto']);

    // The pointer over the page starts the app, which lays the page out whole (main.tsx).
    await page.mouse.move(200, 300);
    await expect.poll(() => appReady(page)).toBe(true);
    await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
    expect(await contentVisibility()).toEqual(['visible', 'visible', 'visible', 'visible', 'visible', 'visible']);
  });

  test('the section buttons scroll each section to 80 px below the top', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const sections = [
      { button: 'Features', heading: 'Everything you need to invest in property' },
      { button: 'About', heading: 'About Terrafund' },
      { button: 'Investment Plans', heading: 'Choose the membership that fits you' },
    ];
    for (const { button, heading } of sections) {
      const before = await page.evaluate(() => window.scrollY);
      await nav.getByRole('button', { name: button }).click();
      await expect.poll(() => page.evaluate(() => window.scrollY)).not.toBe(before);
      await waitForScrollToSettle(page);
      const top = (await page.getByRole('region', { name: heading }).boundingBox())?.y;
      expect(top, `${button} section top`).toBeGreaterThanOrEqual(78);
      expect(top, `${button} section top`).toBeLessThanOrEqual(82);
    }
    await expect(page.getByRole('heading', { name: 'Choose the membership that fits you' })).toBeInViewport();
  });
});
