import { visitEveryScreen } from './support/screens';
import { expect, test, type Page } from './support/test';
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

  test('no screen is wider than the phone, and every tap target is at least 44 × 44 px', async ({ browser, page, problems }) => {
    test.setTimeout(300_000);
    const viewport = page.viewportSize()!;
    await visitEveryScreen(browser, { problems, viewport }, async (screen, name) => {
      await test.step(name, async () => {
        const width = await screen.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
        expect.soft(width.page, `width of "${name}" (${screen.url()})`).toBeLessThanOrEqual(width.screen);
        const small = await smallTapTargets(screen);
        expect.soft(small, `tap targets under 44 × 44 px on "${name}" (${screen.url()})`).toEqual([]);
      });
    });
  });

  test("the dashboard's \"Choose a plan\" link is a 44 × 44 px tap target", async ({ page }) => {
    // The member has no pack: the Next Payout card offers one.
    await signIn(page, member);
    const link = page.getByRole('link', { name: 'Choose a plan' });
    await expect(link).toBeVisible();
    const box = (await link.boundingBox())!;
    expect(Math.round(box.width), 'width').toBeGreaterThanOrEqual(44);
    expect(Math.round(box.height), 'height').toBeGreaterThanOrEqual(44);
    await link.click();
    await expect(page).toHaveURL(/\/wallet$/);
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

/**
 * Every link, button, checkbox, radio, select and [role=button] the page shows that is smaller than 44 × 44 CSS
 * px (issue 17), as "tag "name" w×h". Exempt, as WCAG 2.5.8 allows: a link inline in a sentence (its line box
 * is the text's), and what is not drawn at all (hidden, or visually hidden until focused like the skip link).
 */
export function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MIN = 44;
    const small: string[] = [];
    const selector = 'a[href], button, input[type="checkbox"], input[type="radio"], select, [role="button"]';
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.clipPath === 'inset(50%)' || style.clip === 'rect(0px, 0px, 0px, 0px)') continue;
      if (element.closest('[hidden], [aria-hidden="true"]')) continue;
      if (element.tagName === 'A' && style.display === 'inline') {
        const own = (element.textContent ?? '').trim().length;
        const around = (element.parentElement?.textContent ?? '').trim().length;
        if (around > own) continue; // inside a sentence
      }
      // Fractions of a pixel from rounding are not a smaller target.
      if (Math.round(box.width) >= MIN && Math.round(box.height) >= MIN) continue;
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const kind = element.tagName.toLowerCase() + (element instanceof HTMLInputElement ? `[${element.type}]` : '');
      small.push(`${kind} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return small;
  });
}
