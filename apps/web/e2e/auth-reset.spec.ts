import { expect, test } from './support/test';
import { resetLink } from './support/mailbox';
import { newMember, registerVerified, submitLogin } from './support/members';

test.describe('password reset', () => {
  test('a mailed link sets a new password once; the old one stops working', async ({ page, problems }) => {
    // The old password, and the link used a second time, are refused on purpose.
    problems.allowResponse(/\/api\/users\/login$/);
    problems.allowResponse(/\/api\/users\/reset-password$/);
    const member = await registerVerified(newMember('reset'));
    const newPassword = `${member.password}-new`;

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Password reset email sent successfully. Please check your email.' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

    const link = await resetLink(member.email);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();

    // Show/hide turns the field into plain text and back.
    const field = page.getByLabel('New password', { exact: true });
    await field.fill(newPassword);
    await expect(field).toHaveAttribute('type', 'password');
    const show = page.getByRole('button', { name: 'Show password' }).first();
    await show.click();
    await expect(field).toHaveAttribute('type', 'text');
    await expect(field).toHaveValue(newPassword);
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(field).toHaveAttribute('type', 'password');

    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Password reset successfully! Redirecting to login...' })).toBeVisible();
    const shownAt = Date.now();
    await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 });
    // It waits about two seconds before moving on.
    expect(Date.now() - shownAt).toBeGreaterThan(1_200);

    // The old password fails; the new one works.
    await submitLogin(page, member.email, member.password);
    await expect(page.getByRole('status').filter({ hasText: 'Invalid email or password' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await submitLogin(page, member.email, newPassword);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` })).toBeVisible();

    // The link works once.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill(`${newPassword}-again`);
    await page.getByLabel('Confirm new password').fill(`${newPassword}-again`);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Invalid reset link. Please request a new password reset.' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  });

  test('/reset-password without a token says the link is invalid', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
    await page.getByRole('link', { name: 'Request a new reset link' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  });
});
