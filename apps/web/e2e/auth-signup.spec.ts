import { expect, test, type Page } from './support/test';
import { verificationCode } from './support/mailbox';
import { fillRegisterForm, newMember, otpBoxes, type Member } from './support/members';

/** Fills every field of /register, ticks the terms and submits. */
async function register(page: Page, member: Member) {
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await fillRegisterForm(page, member);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await expect(page.getByText(member.email)).toBeVisible();
}

/** A six-digit code that differs from `code` in every place. */
const wrongCodeFor = (code: string) => [...code].map((d) => String((Number(d) + 1) % 10)).join('');

test.describe('sign up', () => {
  test('registers, rejects a wrong code, and verifies with the mailed code typed box by box', async ({ page, problems }) => {
    problems.allowResponse(/\/api\/users\/verify-otp$/);
    const member = newMember('signup');
    await register(page, member);

    const boxes = otpBoxes(page);
    await expect(boxes).toHaveCount(6);
    await expect(page.getByRole('status').filter({ hasText: 'Registration successful' })).toBeVisible();

    // Resend waits out its cooldown: disabled, counting down in seconds.
    const resend = page.getByRole('button', { name: /^Resend code in \d+s$/ });
    await expect(resend).toBeDisabled();
    const secondsShown = async () => Number(/(\d+)s$/.exec((await resend.textContent()) ?? '')?.[1]);
    const first = await secondsShown();
    expect(first).toBeGreaterThan(50);
    expect(first).toBeLessThanOrEqual(60);
    await expect.poll(secondsShown, { timeout: 3_000 }).toBeLessThan(first);

    const code = await verificationCode(member.email);

    // A wrong code: an error, the boxes emptied, the first box ready for another try.
    const wrong = wrongCodeFor(code);
    for (let i = 0; i < 6; i++) {
      await boxes.nth(i).pressSequentially(wrong[i]!);
      await expect(boxes.nth(i)).toHaveValue(wrong[i]!);
      // Typing a digit moves on to the next box.
      if (i < 5) await expect(boxes.nth(i + 1)).toBeFocused();
    }
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Invalid or expired verification code' })).toBeVisible();
    for (let i = 0; i < 6; i++) await expect(boxes.nth(i)).toHaveValue('');
    await expect(boxes.first()).toBeFocused();
    await expect(page).toHaveURL(/\/register$/);

    // The real code, typed from the first box on: auto-advance carries each digit to its own box.
    await page.keyboard.type(code);
    for (let i = 0; i < 6; i++) await expect(boxes.nth(i)).toHaveValue(code[i]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    // Watched from the click on: the toast lasts seconds, and a slow host spends them on the checks below.
    const verifiedToast = expect(page.getByRole('status').filter({ hasText: 'Email verified successfully!' })).toBeVisible({ timeout: 20_000 });

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` })).toBeVisible();
    await expect(page.getByText('Please complete your KYC verification')).toBeVisible();
    const kycLink = page.getByRole('link', { name: 'Complete KYC now' });
    await expect(kycLink).toHaveAttribute('href', '/kyc');
    await verifiedToast;

    // The session is kept (registration remembers the browser).
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    const storedUser = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { email?: string } | null);
    expect(storedUser?.email).toBe(member.email);

    // It survives a reload, and the KYC link leads to /kyc.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` })).toBeVisible();
    await kycLink.click();
    await expect(page).toHaveURL(/\/kyc$/);
  });

  test('pasting the whole code into the first box fills all six and verifies', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const member = newMember('paste');
    await register(page, member);
    const code = await verificationCode(member.email);

    const boxes = otpBoxes(page);
    await page.evaluate((text) => navigator.clipboard.writeText(text), code);
    await boxes.first().focus();
    await page.keyboard.press('ControlOrMeta+V');

    for (let i = 0; i < 6; i++) await expect(boxes.nth(i)).toHaveValue(code[i]!);
    await page.getByRole('button', { name: 'Verify' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` })).toBeVisible();
  });

  test('refuses a guessable password in the form, with zxcvbn\'s reason, and sends nothing until it is strong', async ({ page }) => {
    const member = newMember('weak');
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/users/register')) registrations.push(request.postData() ?? '');
    });
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await fillRegisterForm(page, { ...member, password: 'Password123!' });
    await page.getByRole('button', { name: 'Create account' }).click();

    // The strength check's word lists load in their own chunk, only on this form; the reason is zxcvbn's.
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toHaveAccessibleDescription(/commonly used password/);
    await expect(password).toBeFocused();
    expect(registrations).toEqual([]);

    await password.fill(member.password);
    await page.getByLabel('Confirm password').fill(member.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    expect(registrations).toHaveLength(1);
  });
});
