import { expect, test } from './support/test';
import { admin } from './support/mailbox';
import { newMember, openDrawnPage, registerVerified, signIn, submitLogin, type Member } from './support/members';

test.describe('guards', () => {
  let member: Member;
  test.beforeAll(async () => {
    member = await registerVerified(newMember('guards'));
  });

  test('an anonymous visit to /profile goes to /login and, after signing in, back to /profile', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();

    await submitLogin(page, member.email, member.password);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  });

  test('a member opening an admin page lands on /', async ({ page }) => {
    await signIn(page, member);
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Start Your Investment Journey' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Manage Users' })).toHaveCount(0);
  });

  test('the admin sees only the Admin group of the menu', async ({ page }) => {
    await openDrawnPage(page, '/login');
    await submitLogin(page, admin().email, admin().password);
    await expect(page).toHaveURL(/\/dashboard$/);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByText('Admin', { exact: true })).toBeVisible();
    await expect(nav.getByRole('link')).toHaveText(['Admin Dashboard', 'Manage Users', 'Transactions', 'Projects', 'Audit log', 'Mail']);
    await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Plan' })).toHaveCount(0);

    await nav.getByRole('link', { name: 'Manage Users' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(nav.getByRole('link', { name: 'Manage Users' })).toHaveAttribute('aria-current', 'page');

    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  });

  test('an unknown address is answered 404 with the error fallback', async ({ page, problems }) => {
    // The server answers with the app's own not-found page (Chromium notes the 404 in the console).
    problems.allowResponse(/\/no-such-page$/, 404);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    await expect(page.getByText('404 Not Found')).toBeVisible();
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('/wallet/payment/success is public and moves on to /wallet (sign-in first when anonymous)', async ({ page }) => {
    await page.goto('/wallet/payment/success');
    await expect(page).toHaveURL(/\/wallet\/payment\/success$/);
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful!' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });

    // Signing in from there finishes the trip to the wallet.
    await submitLogin(page, member.email, member.password);
    await expect(page).toHaveURL(/\/wallet$/);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plan' })).toHaveAttribute('aria-current', 'page');
  });
});
