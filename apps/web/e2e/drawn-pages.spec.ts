import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './support/test';
import { appReady, newMember, registerVerified, type Member } from './support/members';

/**
 * The pages drawn at build (apps/web/scripts/prerender.mjs) against what a visitor does before their app runs
 * (docs/decisions.md "Web"): nothing in them may depend on the build's clock, so a page built this year and opened
 * next year is adopted by React as it is, and what was typed or autofilled meanwhile stays where it was, focus and
 * caret included. The journeys type at once: they never wait for the app before typing, only before asserting.
 */

/** What the build drew, as the server reads it (dist/prerendered/routes.json). */
const build = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../dist/prerendered/routes.json'), 'utf8')) as {
  drawn: string[];
  notFound: string;
};

/** The visit's date a year after the build (the journeys run right after it). */
function aYearAfterTheBuild(): Date {
  const date = new Date();
  date.setFullYear(date.getFullYear() + 1);
  return date;
}

const years = [
  { name: "in the build's year", set: async () => {} },
  { name: 'a year after the build', set: (page: Page) => page.clock.install({ time: aYearAfterTheBuild() }) },
];

const emailField = (page: Page) => page.getByLabel('Email');
const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });

/** Marks the drawn page's <main>, so that after the start the test can tell it was adopted, not drawn again. */
const markDrawnMain = (page: Page) =>
  page.evaluate(() => {
    (document.querySelector('#root main') as HTMLElement & { drawn?: boolean }).drawn = true;
  });
const drawnMainAdopted = (page: Page) =>
  page.evaluate(() => (document.querySelector('#root main') as (HTMLElement & { drawn?: boolean }) | null)?.drawn === true);

/** The member is on the dashboard, signed in. */
async function expectSignedIn(page: Page, member: Member) {
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` })).toBeVisible();
}

/** The field has the focus with its caret after the last character. */
async function expectFocusedAtEnd(page: Page, field: ReturnType<typeof emailField>, value: string) {
  await expect(field).toHaveValue(value);
  await expect(field).toBeFocused();
  expect(await field.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([value.length, value.length]);
}

test.describe('pages drawn at build', () => {
  for (const year of years) {
    test(`every drawn page opens ${year.name} without a console error, and React adopts it as drawn`, async ({ page, problems }) => {
      await year.set(page);
      const notFound = '/no-such-page';
      problems.allowResponse(new RegExp(`${notFound}$`), 404);
      for (const address of [...build.drawn, notFound]) {
        await test.step(address, async () => {
          await page.goto(address);
          await expect(page.locator('#root[data-prerendered] main')).toHaveCount(1);
          await markDrawnMain(page);
          // The pointer over the page starts its app (prerender.mjs).
          await page.mouse.move(200, 300);
          await expect.poll(() => appReady(page)).toBe(true);
          expect(await drawnMainAdopted(page), `${address}: the drawn <main> is the live one`).toBe(true);
        });
      }
    });

    test.describe(`sign-in ${year.name}`, () => {
      let member: Member;
      test.beforeEach(async () => {
        member = await registerVerified(newMember('drawn'));
      });

      test('values autofilled at DOMContentLoaded stay when the app starts, and signing in uses them', async ({ page }) => {
        await year.set(page);
        // What a browser's autofill does: values put in the fields as soon as they are parsed, with input events.
        await page.addInitScript((values: Record<string, string>) => {
          document.addEventListener('DOMContentLoaded', () => {
            for (const [name, value] of Object.entries(values)) {
              const field = document.querySelector<HTMLInputElement>(`#root input[name="${name}"]`);
              if (!field) continue;
              field.value = value;
              field.dispatchEvent(new Event('input', { bubbles: true }));
              field.dispatchEvent(new Event('change', { bubbles: true }));
            }
          });
        }, { email: member.email, password: member.password });
        await page.goto('/login');
        await page.mouse.move(200, 300);
        await expect.poll(() => appReady(page)).toBe(true);
        await expect(emailField(page)).toHaveValue(member.email);
        await expect(passwordField(page)).toHaveValue(member.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expectSignedIn(page, member);
      });

      test('typing at 60 ms a key from the first moment: every key lands, focus and caret stay, signing in works', async ({ page }, testInfo) => {
        await year.set(page);
        await page.goto('/login', { waitUntil: 'commit' });
        // The click waits for the field to be drawn, nothing more; it also starts the app, which arrives mid-typing.
        await emailField(page).click();
        await page.keyboard.type(member.email, { delay: 60 });
        await passwordField(page).click();
        await page.keyboard.type(member.password, { delay: 60 });

        await expect.poll(() => appReady(page)).toBe(true);
        await expect(emailField(page)).toHaveValue(member.email);
        await expectFocusedAtEnd(page, passwordField(page), member.password);
        await page.screenshot({ path: testInfo.outputPath('login-typed-early.png') });
        await page.keyboard.press('Enter');
        await expectSignedIn(page, member);
      });

      test('typing while the scripts are held back for 3 s: what was typed stays, focus and caret included', async ({ page }) => {
        await page.route('**/assets/*.js', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 3000));
          await route.continue();
        });
        await year.set(page);
        await page.goto('/login', { waitUntil: 'commit' });
        await emailField(page).click();
        await page.keyboard.type(member.email);
        await passwordField(page).click();
        await page.keyboard.type(member.password);
        expect(await appReady(page)).toBe(false);

        await expect.poll(() => appReady(page), { timeout: 15_000 }).toBe(true);
        await expect(emailField(page)).toHaveValue(member.email);
        await expectFocusedAtEnd(page, passwordField(page), member.password);
        await page.keyboard.press('Enter');
        await expectSignedIn(page, member);
      });
    });
  }

  test('if React throws the drawn page away anyway, what was typed, the focus and the caret are kept', async ({ page, problems }) => {
    const member = await registerVerified(newMember('redrawn'));
    // A drawn page that differs from what the app draws (as a page built on another day would have): React cannot
    // adopt it and draws the screen again, reporting it (minified React error #418).
    problems.allowConsole(/Minified React error #418/);
    await page.route((url) => url.pathname === '/login', async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace('Sign in to your Terrafund account.', 'Sign in to your account, drawn elsewhere.');
      await route.fulfill({ response, body: html, headers: { ...response.headers(), 'content-encoding': '' } });
    });
    await page.goto('/login', { waitUntil: 'commit' });
    await emailField(page).click();
    await page.keyboard.type(member.email, { delay: 60 });
    await passwordField(page).click();
    await page.keyboard.type(member.password.slice(0, 4), { delay: 60 });

    await expect.poll(() => appReady(page)).toBe(true);
    // The screen was drawn again: the app's own text is there.
    await expect(page.getByText('Sign in to your Terrafund account.')).toBeVisible();
    await expect(emailField(page)).toHaveValue(member.email);
    await expectFocusedAtEnd(page, passwordField(page), member.password.slice(0, 4));
    // The caret is where it was: the rest of the password follows what was typed.
    await page.keyboard.type(member.password.slice(4));
    await page.keyboard.press('Enter');
    await expectSignedIn(page, member);
  });

  test('an address that is neither a route nor a file answers 404 with the app\'s not-found page', async ({ page, problems }, testInfo) => {
    // Chromium notes a document answered 404 in the console ("Failed to load resource"): that one is expected.
    problems.allowResponse(/\/(backup\.sql|\.env|login\.bak)$/, 404);
    for (const address of ['/backup.sql', '/.env', '/login.bak']) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(404);
      expect(response?.headers()['content-type'], address).toMatch(/^text\/html/);
      await expect(page).toHaveTitle('Page not found · Terrafund');
      await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
      await expect(page.getByText('404 Not Found')).toBeVisible();
    }
    // Its app starts like any drawn page's, and the link leads home.
    await page.mouse.move(200, 300);
    await expect.poll(() => appReady(page)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath('not-found.png') });
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    // An address of the app with its params is a page, as before.
    expect((await page.request.get('/projects/any-project-id')).status()).toBe(200);
  });

  test('with scripts blocked, sending the sign-in form posts it: the password never reaches an address', async ({ browser }) => {
    const member = await registerVerified(newMember('noscript'));
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    await page.goto('/login');
    await emailField(page).fill(member.email);
    await passwordField(page).fill(member.password);
    const [post] = await Promise.all([
      page.waitForRequest((request) => request.method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(new URL(post.url()).pathname).toBe('/login');
    expect((await post.response())?.status()).toBe(303);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    // Back on the empty form, signed in nowhere: no address, history entry or proxy log ever held the fields.
    for (const address of [...addresses, page.url()]) {
      expect(address).not.toContain(encodeURIComponent(member.email));
      expect(address).not.toContain(member.password);
      expect(address).not.toContain('password=');
    }
    await context.close();
  });
});
