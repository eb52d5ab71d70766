import { textsOf, type Language } from './catalogue';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { admin, uniqueEmail, verificationCode } from './mailbox';

/** The product under test, as scripts/e2e.mjs started it. */
export const baseUrl = () => process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000';

export type Member = { firstName: string; lastName: string; email: string; password: string };

let names = 0;
const firstNames = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Radia', 'Ken'];
const lastNames = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Perlman', 'Thompson'];

/** A new person with a unique address, not yet known to the product. */
export function newMember(prefix = 'member'): Member {
  names += 1;
  return {
    firstName: firstNames[names % firstNames.length]!,
    lastName: lastNames[(names * 3) % lastNames.length]!,
    email: uniqueEmail(prefix),
    password: `Pw-${Math.random().toString(36).slice(2, 10)}-e2e`,
  };
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl()}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Calls the API as `who` (its own session, outside the browser); answers the status and the JSON. */
export async function apiAs(who: Pick<Member, 'email' | 'password'>) {
  const { json: login } = await post('/users/login', who);
  const token = login.token as string;
  expect(token, `signing in as ${who.email}`).toBeTruthy();
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl()}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };
}

/** Registers through the API, as another browser would; the account still needs its e-mail code. */
export async function registerUnverified(member: Member = newMember(), options: { locale?: Language } = {}): Promise<Member> {
  const { status, json } = await post('/users/register', {
    firstName: member.firstName,
    lastName: member.lastName,
    email: member.email,
    phone: '+1 555 010 2030',
    password: member.password,
    ...(options.locale ? { locale: options.locale } : {}),
  });
  expect(status, JSON.stringify(json)).toBeLessThan(300);
  expect(json.requiresVerification).toBe(true);
  return member;
}

/** A member who registered and entered the mailed code (through the API), ready to sign in. */
export async function registerVerified(member: Member = newMember(), options: { locale?: Language } = {}): Promise<Member> {
  await registerUnverified(member, options);
  const otp = await verificationCode(member.email);
  const { status, json } = await post('/users/verify-otp', { email: member.email, otp });
  expect(status, JSON.stringify(json)).toBeLessThan(300);
  return member;
}

/**
 * Opens a page drawn at build (/, /login) as a quick visitor meets it: the journey goes on as soon as the page
 * starts to arrive, and types into it without waiting for its app, which may start while it types (wait only
 * before asserting; docs/decisions.md "Web").
 */
export const openDrawnPage = (page: Page, address: '/' | '/login') => page.goto(address, { waitUntil: 'commit' });

/** Fills and submits the sign-in form of the page already open at /login (typed at once, the app running or not). */
export async function submitLogin(page: Page, email: string, password: string, { remember = false, language = 'en' as Language } = {}) {
  const t = textsOf(language, 'auth');
  await page.getByLabel(t('email')).fill(email);
  await page.getByLabel(t('password'), { exact: true }).fill(password);
  if (remember) await page.getByRole('checkbox', { name: t('login.remember') }).check();
  await page.getByRole('button', { name: t('login.submit') }).click();
}

/** Signs in through /login and waits for the dashboard's greeting. */
export async function signIn(page: Page, member: Pick<Member, 'email' | 'password'>, options: { remember?: boolean; language?: Language } = {}) {
  await openDrawnPage(page, '/login');
  await submitLogin(page, member.email, member.password, options);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A browser context of its own, beside the member's page, signed in as the admin; close it when done. */
export async function signInAdmin(browser: Browser): Promise<{ adminContext: BrowserContext; adminPage: Page }> {
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin());
  return { adminContext, adminPage };
}

/** The six boxes of the e-mail code screen. */
/** Fills every field of /register and ticks the terms (the page must be open). */
export async function fillRegisterForm(page: Page, member: Member, { language = 'en' as Language, phone = '+1 555 123 4567' } = {}) {
  const auth = textsOf(language, 'auth');
  const fields = textsOf(language, 'common');
  await page.getByLabel(fields('fields.firstName')).fill(member.firstName);
  await page.getByLabel(fields('fields.lastName')).fill(member.lastName);
  await page.getByLabel(auth('email')).fill(member.email);
  await page.getByLabel(auth('register.phone')).fill(phone);
  await page.getByLabel(auth('password'), { exact: true }).fill(member.password);
  await page.getByLabel(fields('fields.confirmPassword')).fill(member.password);
  await page.getByRole('checkbox', { name: auth('register.agree') }).check();
}

export const otpBoxes = (page: Page) => page.getByRole('textbox', { name: /^Digit \d of 6$/ });

/** Waits until a smooth scroll has come to rest: scrollY the same over 400 ms of samples. */
export async function waitForScrollToSettle(page: Page) {
  const samples: number[] = [];
  await expect
    .poll(
      async () => {
        samples.push(await page.evaluate(() => window.scrollY));
        const last = samples.slice(-5);
        return last.length === 5 && last.every((y) => y === last[0]);
      },
      { intervals: [100], timeout: 5_000, message: 'waiting for the page to stop scrolling' },
    )
    .toBe(true);
}

/** Whether the app has started on the page (main.tsx sets `__appReady` once its first screen is committed). */
export const appReady = (page: Page) => page.evaluate(() => (window as { __appReady?: boolean }).__appReady === true);
