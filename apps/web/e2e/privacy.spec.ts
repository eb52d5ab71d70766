import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { expect, test } from './support/test';
import { admin, verificationCode, waitForMail } from './support/mailbox';
import { apiAs, fillRegisterForm, newMember, openDrawnPage, otpBoxes, registerVerified, signIn, signInAdmin, submitLogin } from './support/members';
import { toast } from './support/money';

/**
 * Issue 34's journeys: the data export asked, downloaded and opened; a closed account that cannot sign in and whose
 * address registers afresh; an optional mail's unsubscribe link followed without signing in.
 */

// Each journey registers members, waits for mail and crosses several screens: more than the default minute on a
// busy machine.
test.describe.configure({ timeout: 240_000 });

/**
 * The files of a ZIP archive by name, read with node's zlib: the central directory at the end lists every entry
 * (its method, sizes and where its local header is); each entry's bytes are stored or raw-deflated.
 */
function unzip(archive: Buffer): Map<string, Buffer> {
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a ZIP archive: no end of central directory');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localHeader = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = localHeader + 30 + archive.readUInt16LE(localHeader + 26) + archive.readUInt16LE(localHeader + 28);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

test('a member asks for their data with the password, waits for it to be ready, downloads it and opens it', async ({ page }, testInfo) => {
  const member = await registerVerified(newMember('export'));
  await signIn(page, member);

  await page.goto('/profile#privacy');
  const privacy = page.getByRole('region', { name: 'Privacy' });
  const exportCard = privacy.getByRole('region', { name: 'Download my data' });
  await exportCard.getByRole('button', { name: 'Request my data' }).click();
  await exportCard.getByLabel('Password', { exact: true }).fill(member.password);
  await exportCard.getByRole('button', { name: 'Prepare my data' }).click();
  await expect(toast(page, 'Your data export has started')).toBeVisible();

  // Prepared in seconds: the list, asked again while the export is pending, offers the download.
  const exports = exportCard.getByRole('list', { name: 'Your data exports' });
  await expect(exports.getByText('Ready')).toBeVisible({ timeout: 30_000 });
  await waitForMail(member.email, /data export is ready/i);
  await privacy.screenshot({ path: testInfo.outputPath('privacy-section.png') });

  const downloading = page.waitForEvent('download');
  await exports.getByRole('button', { name: /^Download/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const files = unzip(readFileSync((await download.path())!));
  for (const name of ['profile.json', 'transactions.csv', 'notifications.json', 'sessions.json', 'audit.json']) {
    expect([...files.keys()], `the export holds ${name}`).toContain(name);
  }
  const profile = JSON.parse(files.get('profile.json')!.toString('utf8')) as { user: { email: string; firstName: string } };
  expect(profile.user).toMatchObject({ email: member.email, firstName: member.firstName });
  const sessions = JSON.parse(files.get('sessions.json')!.toString('utf8')) as unknown[];
  expect(sessions.length).toBeGreaterThan(0);
  // No secret of the platform's in any file.
  for (const [name, content] of files) expect(content.toString('utf8'), name).not.toMatch(/passwordHash|argon2|twoFactorSecret/i);

  // The link is the member's own: another member is told it does not exist.
  const mine = await apiAs(member);
  const [ready] = (await mine('GET', '/users/data-export')).json as unknown as { id: string }[];
  const stranger = await registerVerified(newMember('stranger'));
  const theirs = await apiAs(stranger);
  expect((await theirs('GET', `/users/data-export/${ready!.id}/download`)).status).toBe(404);
});

test('a member closes the account: signed out at once, the old sign-in refused, the address registered afresh', async ({ page, browser, problems }) => {
  const member = await registerVerified(newMember('closing'));
  const { json: before } = await (await apiAs(member))('GET', '/users/profile');
  const closedId = String(before._id);
  await signIn(page, member);

  await page.goto('/profile#privacy');
  const closeCard = page.getByRole('region', { name: 'Close my account' });
  // What is kept and what is given up is said before anything is asked.
  await expect(closeCard.getByText(/KYC record and documents .*for 5 years after closing/)).toBeVisible();
  await closeCard.getByRole('button', { name: 'Close my account' }).click();
  await closeCard.getByLabel('Type CLOSE to confirm').fill('CLOSE');
  await closeCard.getByLabel('Password', { exact: true }).fill(member.password);
  await closeCard.getByRole('button', { name: 'Close my account permanently' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, 'Your account is closed')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token') ?? sessionStorage.getItem('token'))).toBeNull();
  await waitForMail(member.email, /account is closed/i);

  // The old password opens nothing any more.
  problems.allowResponse(/\/api\/users\/login$/, 400);
  await openDrawnPage(page, '/login');
  await submitLogin(page, member.email, member.password);
  await expect(toast(page, 'Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // The same address registers again, as a new account, with a fresh code.
  await page.goto('/register');
  await fillRegisterForm(page, member);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await otpBoxes(page).first().click();
  await page.keyboard.type(await verificationCode(member.email, 2));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The admin sees the old account as Closed, under its tombstone, with nothing that would reopen it.
  const { adminContext, adminPage } = await signInAdmin(browser);
  await adminPage.goto(`/admin/users/${closedId}`);
  await expect(adminPage.getByRole('heading', { level: 1 })).toBeVisible();
  const profileCard = adminPage.getByRole('region', { name: 'Profile' });
  await expect(profileCard.getByText('Closed', { exact: true })).toBeVisible();
  await expect(profileCard.getByText(`closed-${closedId}@invalid`)).toBeVisible();
  await expect(adminPage.getByText(/cannot sign in or be reopened/)).toBeVisible();
  await expect(adminPage.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await adminContext.close();
});

test('a member who opted in to new projects unsubscribes from the mail\'s link without signing in', async ({ page, browser }) => {
  const member = await registerVerified(newMember('unsubscribe'));
  await signIn(page, member);

  // New projects are mailed only to members who turn them on.
  await page.goto('/profile#notifications');
  const projects = page.getByRole('switch', { name: 'New projects' });
  await expect(projects).toHaveAttribute('aria-checked', 'false');
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/users/notification-preferences') && response.request().method() === 'PATCH');
  await projects.click();
  expect((await saved).status()).toBe(200);
  await expect(projects).toHaveAttribute('aria-checked', 'true');

  const title = `Privacy ${Date.now().toString(36)} Harbour Flats`;
  const asAdmin = await apiAs(admin());
  const created = await asAdmin('POST', '/projects', {
    title,
    description: 'Eight flats over the old harbour office, let on long leases.',
    location: 'Porto, Portugal',
    type: 'residential',
    status: 'available',
    target: 200_000,
    minInvestment: 100,
    roi: 7,
    term: 24,
    details: {
      features: ['Sea view'],
      propertyType: 'Flats',
      size: '900 sq m',
      units: 8,
      yearBuilt: 1998,
      occupancyRate: 90,
      paymentSchedule: 'monthly',
      documents: [],
    },
  });
  expect(created.status, JSON.stringify(created.json)).toBeLessThan(300);

  const mail = await waitForMail(member.email, new RegExp(`New project: ${title}`));
  expect(mail.body).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  const link = /(https?:\/\/[^\s"<>]+\/unsubscribe\?token=[^\s"<>&]+)/.exec(mail.body)?.[1];
  expect(link, 'the unsubscribe link in the mail').toBeTruthy();

  // Opened in a browser that is not signed in: the page says which mails stop, and stops them on the press.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(link!);
  await expect(visitorPage.getByRole('heading', { level: 1, name: 'Unsubscribe from these e-mails' })).toBeVisible();
  await visitorPage.getByRole('button', { name: 'Unsubscribe from New projects' }).click();
  await expect(visitorPage.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
  await expect(visitorPage.getByText(/no longer receive new projects e-mails/i)).toBeVisible();
  await visitor.close();

  await page.reload();
  await expect(page.getByRole('switch', { name: 'New projects' })).toHaveAttribute('aria-checked', 'false');
});
