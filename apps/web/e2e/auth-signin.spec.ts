import { expect, test } from './support/test';
import { latestVerificationCode, verificationCode } from './support/mailbox';
import { appReady, newMember, openDrawnPage, otpBoxes, registerUnverified, registerVerified, submitLogin, type Member } from './support/members';

test.describe('sign in', () => {
  let member: Member;
  test.beforeAll(async () => {
    member = await registerVerified(newMember('signin'));
  });

  test('remember-me keeps the session across a reload; signing out ends it', async ({ page }) => {
    await openDrawnPage(page, '/login');
    await submitLogin(page, member.email, member.password, { remember: true });

    await expect(page).toHaveURL(/\/dashboard$/);
    const greeting = page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` });
    await expect(greeting).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(greeting).toBeVisible();

    // The avatar menu, named after the member, holds Sign out.
    await page.getByRole('button', { name: `${member.firstName} ${member.lastName}` }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token') ?? sessionStorage.getItem('token'))).toBeNull();

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  });

  test('the drawn page runs no script until used; what is typed and sent while the app starts is kept and done', async ({ page }) => {
    // Every script arrives 1.5 s late, so the member types and presses Sign in before the app runs.
    await page.route('**/assets/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/login');
    await page.waitForLoadState('load');
    await page.waitForTimeout(2500);
    expect(await appReady(page)).toBe(false);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();

    // Focusing the field starts the app; what is typed meanwhile stays when React adopts the form (react-hook-form
    // keeps fields edited before it was ready).
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByText('Remember me').click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await appReady(page)).toBe(false);

    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  });

  test('a wrong password is refused with "Invalid email or password"', async ({ page, problems }) => {
    problems.allowResponse(/\/api\/users\/login$/);
    await openDrawnPage(page, '/login');
    await submitLogin(page, member.email, `${member.password}-wrong`);

    await expect(page.getByRole('status').filter({ hasText: 'Invalid email or password' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Invalid email or password');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an unverified account signing in gets the code screen, and the mailed code lets it in', async ({ page }) => {
    const unverified = await registerUnverified(newMember('unverified'));
    // The registration mail is there before the sign-in.
    await verificationCode(unverified.email, 1);

    await openDrawnPage(page, '/login');
    await submitLogin(page, unverified.email, unverified.password);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await expect(page.getByText(unverified.email)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Resend code in \d+s$/ })).toBeDisabled();

    // Signing in within the 60 s resend cooldown of the registration mails no second code (decisions
    // section 2), so the newest code mail is the one that holds the valid code.
    const code = await latestVerificationCode(unverified.email);
    await otpBoxes(page).first().click();
    await page.keyboard.type(code);
    await page.getByRole('button', { name: 'Verify' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(
      page.getByRole('heading', { level: 1, name: `Welcome back, ${unverified.firstName} ${unverified.lastName}` }),
    ).toBeVisible();
    // Remember-me was left unticked: the session lives in sessionStorage only.
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});
