import { expectNoSeriousViolations } from './support/axe';
import { admin } from './support/mailbox';
import { baseUrl } from './support/members';
import { spanishFundedMember } from './support/money';
import { expect, test, type Browser, type Page } from './support/test';

/**
 * The main screens in Spanish and in French (issue 35): axe finds no serious or critical violation (a translated
 * label, the page's `lang`), and at 390 px nothing is wider than the phone (longer words must not break a layout).
 * The visitor's, the member's and the admin's screens, each signed in as its account, whose `locale` the app follows:
 * set here for the run, and English again for the admin at the end (the other journeys speak English to it).
 */
const SCREENS = {
  visitor: ['/', '/login', '/register', '/forgot-password'],
  member: ['/dashboard', '/wallet', '/projects', '/kyc', '/profile'],
  admin: ['/admin', '/admin/users', '/admin/transactions', '/admin/projects', '/admin/audit', '/admin/mail'],
} as const;

type Account = { email: string; password: string };

async function tokenOf(account: Account): Promise<string> {
  const response = await fetch(`${baseUrl()}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function speak(token: string, locale: 'en' | 'es' | 'fr') {
  const response = await fetch(`${baseUrl()}/api/users/profile`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ locale }),
  });
  expect(response.status).toBe(200);
}

/** Opens each screen in `language` at `width`, signed in with `token` when given, and checks it with `check`. */
async function tour(
  browser: Browser,
  language: 'es' | 'fr',
  width: number,
  screens: readonly string[],
  token: string | undefined,
  check: (name: string, page: Page) => Promise<void>,
) {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: language, viewport: { width, height: 900 }, hasTouch: width < 640 });
  await context.addInitScript(
    ([session, lang]) => {
      try {
        if (session) localStorage.setItem('token', session);
        localStorage.setItem('lang', lang!);
      } catch {
        // a frame without storage
      }
    },
    [token, language] as const,
  );
  const page = await context.newPage();
  try {
    for (const screen of screens) {
      await page.goto(screen);
      // A drawn page starts its app at the visitor's first interaction (index.html): a key press, here.
      await page.keyboard.press('Shift');
      await expect.poll(() => page.evaluate(() => (window as { __appReady?: boolean }).__appReady === true), { timeout: 20_000 }).toBe(true);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.lang), `${screen}: <html lang>`).toBe(language);
      await check(`${screen} (${language}, ${width} px)`, page);
    }
  } finally {
    await context.close();
  }
}

test.describe('the main screens in Spanish and French', () => {
  test.describe.configure({ timeout: 600_000 });

  test('axe finds no serious violation, and nothing is wider than a 390 px phone', async ({ browser }, testInfo) => {
    testInfo.skip(testInfo.project.name !== 'desktop', 'run once, in the desktop project');
    const member = spanishFundedMember();
    const memberToken = await tokenOf(member);
    const adminToken = await tokenOf(admin());
    try {
      for (const language of ['es', 'fr'] as const) {
        await speak(memberToken, language);
        await speak(adminToken, language);
        for (const [who, screens] of Object.entries(SCREENS)) {
          const token = who === 'member' ? memberToken : who === 'admin' ? adminToken : undefined;
          await test.step(`${who}, ${language}: axe`, () =>
            tour(browser, language, 1366, screens, token, (name, page) => expectNoSeriousViolations(page, name)));
          await test.step(`${who}, ${language}: 390 px`, () =>
            tour(browser, language, 390, screens, token, async (name, page) => {
              const width = await page.evaluate(() => document.documentElement.scrollWidth);
              expect.soft(width, `${name}: the page is ${width} px wide`).toBeLessThanOrEqual(390);
            }));
        }
      }
    } finally {
      await speak(memberToken, 'es');
      await speak(adminToken, 'en');
    }
  });
});
