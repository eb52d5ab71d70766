import { expect, test, type Locator, type Page } from './support/test';
import { admin, waitForMail } from './support/mailbox';
import { baseUrl, newMember, registerVerified, signIn, type Member } from './support/members';
// The same format-true builders the API tests use: real PNG and PDF bytes, no fixtures on disk.
import { pdf, png } from '../../api/test/files';

/** Resolves once the <img> has decoded a real picture. */
async function expectImageLoaded(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { message: 'waiting for the image to decode' })
    .toBeGreaterThan(0);
}

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });
const fileInput = (page: Page, label: string) => page.getByLabel(new RegExp(`(Choose|Replace) file for ${label}$`));
const REASON = 'ID photo is blurry';

test.describe.serial('KYC', () => {
  let member: Member;
  /** What the admin's page asked for and got when viewing the ID front. */
  let documentLinkPath: string;
  let signedUrl: string;

  test.beforeAll(async () => {
    member = await registerVerified(newMember('kyc'));
  });

  test('a member submits KYC, the admin rejects it with a reason, the member resubmits and the admin approves', async ({ page, browser }) => {
    // Two whole submissions, each with three uploads, and two browsers: longer than one journey's usual minute.
    test.slow();
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();

    await test.step('the member fills the four steps and uploads real files', async () => {
      await signIn(page, member);
      await page.goto('/kyc');
      await expect(page.getByRole('heading', { level: 1, name: 'KYC Verification' })).toBeVisible();

      await expect(stepHeading(page, 'Personal Information')).toBeVisible();
      await expect(page.getByLabel('First name')).toHaveValue(member.firstName);
      await expect(page.getByLabel('Last name')).toHaveValue(member.lastName);
      await page.getByLabel('Date of birth').fill('1988-04-15');
      await page.getByLabel('Nationality').selectOption('FR');
      await page.getByRole('button', { name: 'Next' }).click();

      await expect(stepHeading(page, 'Address Verification')).toBeVisible();
      await page.getByLabel('Street address').fill('12 Rue de Rivoli');
      await page.getByLabel('City').fill('Paris');
      await page.getByLabel('Postal code').fill('75001');
      await page.getByLabel('Country').selectOption('FR');
      await page.getByRole('button', { name: 'Next' }).click();

      await expect(stepHeading(page, 'Identity Verification')).toBeVisible();
      await expect(page.getByLabel('ID type')).toHaveValue('passport');
      await page.getByLabel('ID type').selectOption('national_id');
      await page.getByLabel('ID number').fill('FR-123456789');
      await page.getByRole('button', { name: 'Next' }).click();

      await expect(stepHeading(page, 'Additional Documents')).toBeVisible();
      await fileInput(page, 'ID front').setInputFiles({ name: 'id-front.png', mimeType: 'image/png', buffer: png({ width: 96, height: 60, seed: 1 }) });
      await expect(toast(page, 'File uploaded successfully').first()).toBeVisible();
      await expectImageLoaded(page.getByRole('img', { name: 'ID front preview' }));

      await fileInput(page, 'Proof of address').setInputFiles({ name: 'utility-bill.pdf', mimeType: 'application/pdf', buffer: pdf() });
      await expect(page.getByRole('link', { name: /Open proof of address \(PDF\)/ })).toBeVisible();

      // A national ID card needs its back too: the wizard says so and sends nothing.
      await page.getByRole('checkbox', { name: /I confirm that the information and documents/ }).check();
      await page.getByRole('button', { name: 'Submit Verification' }).click();
      await expect(toast(page, 'Please upload your ID back to submit your verification')).toBeVisible();
      await expect(stepHeading(page, 'Additional Documents')).toBeVisible();

      await fileInput(page, 'ID back').setInputFiles({ name: 'id-back.png', mimeType: 'image/png', buffer: png({ width: 96, height: 60, seed: 2 }) });
      await expectImageLoaded(page.getByRole('img', { name: 'ID back preview' }));
      await page.getByRole('button', { name: 'Submit Verification' }).click();
      await expect(page.getByRole('heading', { name: 'Verification in Progress' })).toBeVisible();
      await expect(toast(page, 'Your KYC application has been submitted for review.')).toBeVisible();
    });

    await test.step('the admin finds the pending member, views the ID front and rejects with a reason', async () => {
      await signIn(adminPage, admin());
      await adminPage.goto('/admin/users');
      await adminPage.getByRole('button', { name: 'View Pending KYC' }).click();
      await expect(adminPage).toHaveURL(/view=pending/);
      await expect(adminPage.getByRole('heading', { name: 'Pending KYC reviews' })).toBeVisible();
      await adminPage.getByLabel('Search users by name or email').fill(member.email);
      const row = adminPage.getByRole('row').filter({ hasText: member.email });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('Pending');
      await row.getByRole('link', { name: `View details of ${member.firstName} ${member.lastName}` }).click();

      await expect(adminPage.getByRole('heading', { level: 1, name: `${member.firstName} ${member.lastName}` })).toBeVisible();
      await expect(adminPage.getByText('Awaiting your review')).toBeVisible();

      const linkResponse = adminPage.waitForResponse((r) => /\/api\/kyc\/documents\/idFront\/[^/]+\/link/.test(r.url()));
      await adminPage.getByRole('button', { name: 'View ID front' }).click();
      const response = await linkResponse;
      expect(response.status()).toBe(200);
      documentLinkPath = new URL(response.url()).pathname;
      signedUrl = ((await response.json()) as { url: string }).url;

      const viewer = adminPage.getByRole('dialog', { name: 'ID front' });
      await expect(viewer).toBeVisible();
      await expectImageLoaded(viewer.getByRole('img', { name: `ID front of ${member.firstName} ${member.lastName}` }));
      await viewer.getByRole('button', { name: 'Close' }).click();
      await expect(viewer).toBeHidden();

      await adminPage.getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = adminPage.getByRole('dialog', { name: 'Reject KYC' });
      await expect(dialog).toBeVisible();
      const confirm = dialog.getByRole('button', { name: 'Reject KYC' });
      await expect(confirm).toBeDisabled();
      await dialog.getByLabel('Rejection reason').fill('   ');
      await expect(confirm).toBeDisabled();
      await dialog.getByLabel('Rejection reason').fill(REASON);
      await expect(confirm).toBeEnabled();
      await confirm.click();
      await expect(toast(adminPage, 'KYC rejected.')).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(adminPage.getByText('Awaiting your review')).toHaveCount(0);
      const kycInfo = adminPage.getByRole('region', { name: 'KYC information' });
      await expect(kycInfo.getByText('Rejection reason', { exact: true })).toBeVisible();
      await expect(kycInfo.getByText(REASON, { exact: true })).toBeVisible();
    });

    await test.step('the member reads the rejection and its reason, by mail and on /kyc', async () => {
      const mail = await waitForMail(member.email, /identity verification needs another look/i);
      expect(mail.body).toContain(REASON);

      await page.reload();
      await expect(page.getByText('Verification Rejected')).toBeVisible();
      await expect(page.getByText(`Reason: ${REASON}`)).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Verification in Progress' })).toHaveCount(0);
      await expect(stepHeading(page, 'Personal Information')).toBeVisible();
    });

    await test.step('the member resubmits with the previous answers and a sharper ID photo', async () => {
      await expect(page.getByLabel('Date of birth')).toHaveValue('1988-04-15');
      await expect(page.getByLabel('Nationality')).toHaveValue('FR');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByLabel('Street address')).toHaveValue('12 Rue de Rivoli');
      await expect(page.getByLabel('City')).toHaveValue('Paris');
      await expect(page.getByLabel('Postal code')).toHaveValue('75001');
      await expect(page.getByLabel('Country')).toHaveValue('FR');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByLabel('ID type')).toHaveValue('national_id');
      await expect(page.getByLabel('ID number')).toHaveValue('FR-123456789');
      await page.getByRole('button', { name: 'Next' }).click();

      await expect(stepHeading(page, 'Additional Documents')).toBeVisible();
      // The earlier uploads come back with the form.
      await expectImageLoaded(page.getByRole('img', { name: 'ID front preview' }));
      await expectImageLoaded(page.getByRole('img', { name: 'ID back preview' }));
      await expect(page.getByRole('link', { name: /Open proof of address \(PDF\)/ })).toBeVisible();

      await fileInput(page, 'ID front').setInputFiles({ name: 'id-front-sharp.png', mimeType: 'image/png', buffer: png({ width: 160, height: 100, seed: 7 }) });
      await expect(toast(page, 'File uploaded successfully').first()).toBeVisible();
      await expect
        .poll(() => page.getByRole('img', { name: 'ID front preview' }).evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)))
        .toBe(160);

      const confirmation = page.getByRole('checkbox', { name: /I confirm that the information and documents/ });
      await expect(confirmation).not.toBeChecked();
      await confirmation.check();
      await page.getByRole('button', { name: 'Submit Verification' }).click();
      await expect(page.getByRole('heading', { name: 'Verification in Progress' })).toBeVisible();
      await expect(page.getByText('Verification Rejected')).toHaveCount(0);
    });

    await test.step('the admin approves, and the audit log lists both decisions', async () => {
      await adminPage.reload();
      await expect(adminPage.getByText('Awaiting your review')).toBeVisible();
      await adminPage.getByRole('button', { name: 'Approve' }).click();
      await expect(toast(adminPage, 'KYC verified successfully.')).toBeVisible();
      await expect(adminPage.getByText('Awaiting your review')).toHaveCount(0);

      const auditLog = adminPage.getByRole('region', { name: 'Audit log' });
      const rejected = auditLog.getByRole('listitem').filter({ hasText: 'KYC rejected' });
      const approved = auditLog.getByRole('listitem').filter({ hasText: 'KYC approved' });
      await expect(rejected).toHaveCount(1);
      await expect(approved).toHaveCount(1);
      await expect(rejected).toContainText(REASON);
      await expect(rejected).toContainText(admin().email);
      await expect(approved).toContainText(admin().email);
    });

    await test.step('the member is verified: approval mail, /kyc and the dashboard', async () => {
      await waitForMail(member.email, /your identity is verified/i);

      await page.reload();
      await expect(page.getByRole('heading', { name: 'Verification Approved' })).toBeVisible();
      await expect(page.getByText('Verification Rejected')).toHaveCount(0);
      await expect(stepHeading(page, 'Personal Information')).toHaveCount(0);
      await page.getByRole('link', { name: 'Go to Wallet' }).click();
      await expect(page).toHaveURL(/\/wallet$/);

      await page.goto('/dashboard');
      await expect(page.getByText('Your account is verified')).toBeVisible();
      await expect(page.getByText('Please complete your KYC verification')).toHaveCount(0);
    });

    await adminContext.close();
  });

  test('document links are refused without a token, and a tampered signed link is refused', async ({ page }) => {
    expect(documentLinkPath).toMatch(/^\/api\/kyc\/documents\/idFront\/[^/]+\/link$/);

    const anonymous = await page.request.get(`${baseUrl()}${documentLinkPath}`);
    expect(anonymous.status()).toBe(401);

    // The signed link itself still works without a token, as it is meant to.
    const genuine = await page.request.get(`${baseUrl()}${signedUrl}`);
    expect(genuine.status()).toBe(200);
    expect(genuine.headers()['content-type']).toBe('image/png');

    const url = new URL(signedUrl, baseUrl());
    const sig = url.searchParams.get('sig')!;
    expect(sig.length).toBeGreaterThan(10);
    url.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    const tampered = await page.request.get(url.toString());
    expect(tampered.status()).toBe(403);
  });
});
