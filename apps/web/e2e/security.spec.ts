import { expect, test } from './support/test';
import { Secret, TOTP } from 'otpauth';
import { newMember, openDrawnPage, registerVerified, signIn, submitLogin } from './support/members';

/** What an authenticator app shows for `secret` now. */
const currentCode = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();

test('a member turns on two-factor sign-in, signs in with the authenticator code, and sees where they are signed in', async ({ page, browser, problems }) => {
  const member = await registerVerified(newMember('twofactor'));
  await signIn(page, member, { remember: true });

  await page.goto('/profile#security');
  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  // The password first: a session alone cannot put an authenticator on the account.
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Authentication code').fill(currentCode(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();

  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.first().textContent())!.trim();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: 'Disable 2FA' })).toBeVisible();

  // A second browser signs in: the password, then the authenticator code.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await openDrawnPage(otherPage, '/login');
  await submitLogin(otherPage, member.email, member.password);
  await expect(otherPage.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  expect(await otherPage.evaluate(() => localStorage.getItem('token') ?? sessionStorage.getItem('token'))).toBeNull();
  await otherPage.getByLabel('Authentication code').fill(currentCode(secret));
  await otherPage.getByRole('button', { name: 'Verify' }).click();
  await expect(otherPage).toHaveURL(/\/dashboard$/);

  // The first browser sees its own session and the second browser's (turning 2FA on ended the one the e-mail
  // verification opened outside a browser), and signs the other out; it stops working at its next call.
  await page.reload();
  const sessions = page.getByRole('list', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByText('This device')).toBeVisible();
  // The other browser's session ends on purpose: its next call is refused and the app says so.
  problems.allowResponse(/\/api\/users\/profile$/, 401);
  problems.allowConsole(/Could not restore the session/);
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await otherPage.goto('/profile');
  await expect(otherPage).toHaveURL(/\/login$/);

  // A recovery code works in place of the authenticator, once.
  await openDrawnPage(otherPage, '/login');
  await submitLogin(otherPage, member.email, member.password);
  await otherPage.getByRole('button', { name: 'Use a recovery code' }).click();
  await otherPage.getByLabel('Recovery code').fill(recoveryCode);
  await otherPage.getByRole('button', { name: 'Verify' }).click();
  // Back to the page that was asked for when the session had ended.
  await expect(otherPage).toHaveURL(/\/profile$/);
  await expect(otherPage.getByRole('button', { name: 'Disable 2FA' })).toBeVisible();
  await other.close();
});
