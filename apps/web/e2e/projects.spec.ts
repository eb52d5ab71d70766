import { expect, test, type Locator } from './support/test';
import { signIn, signInAdmin } from './support/members';
import { amountIn, fundedMember, summaryCard, toast } from './support/money';
// The same format-true builders the API tests use: real PNG and PDF bytes, no fixtures on disk.
import { pdf, png } from '../../api/test/files';

/** Resolves once the <img> has decoded a real picture. */
async function expectImageLoaded(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { message: 'waiting for the image to decode' })
    .toBeGreaterThan(0);
}

test.describe('projects', () => {
  // Journeys of many steps, on a shared 2-core machine: twice the default, still bounded.
  test.describe.configure({ timeout: 120_000 });

  test('the admin adds a project with a picture and a document; a verified member finds it and invests', async ({ page, browser }) => {
    // One made-up word makes the project the only one a search finds.
    const word = `Zephyrine${Date.now().toString(36)}`;
    const title = `${word} Harbour Residences`;
    const project = { target: 1000, minInvestment: 40, invest: 50 };
    const percent = Math.floor((project.invest / project.target) * 100);
    const documentName = 'Investor brochure';

    await test.step('the admin fills every field of Add Project, uploads a picture and a PDF, and saves', async () => {
      const { adminContext, adminPage } = await signInAdmin(browser);
      await adminPage.goto('/admin/projects');
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Manage Projects' })).toBeVisible();
      await adminPage.getByRole('link', { name: 'Add Project' }).click();
      await expect(adminPage).toHaveURL(/\/admin\/projects\/add$/);
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Add Project' })).toBeVisible();

      const form = adminPage.getByRole('form', { name: 'Create Project' });
      await form.getByLabel('Title', { exact: true }).fill(title);
      await form.getByLabel('Location', { exact: true }).fill('Porto, Portugal');
      await form.getByLabel('Type', { exact: true }).selectOption('residential');
      await form.getByLabel('Status', { exact: true }).selectOption('available');
      await form.getByLabel('Description', { exact: true }).fill('Forty riverside apartments a short walk from the old town, let on long leases.');

      await form.getByLabel('Target (USD)').fill(String(project.target));
      await form.getByLabel('Minimum investment (USD)').fill(String(project.minInvestment));
      await form.getByLabel('ROI (%)').fill('8.5');
      await form.getByLabel('Term (months)').fill('36');
      await form.getByLabel('Start date (optional)').fill('2026-01-01');
      await form.getByLabel('End date (optional)').fill('2029-01-01');

      await form.getByLabel('Upload pictures').setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: png({ width: 160, height: 90, seed: 3 }) });
      const pictures = form.getByRole('list', { name: 'Pictures' });
      await expectImageLoaded(pictures.getByRole('img', { name: 'Picture 1' }));
      await expect(pictures).toContainText('Cover');

      await form.getByLabel('Property type').fill('Apartment building');
      await form.getByLabel('Size', { exact: true }).fill('3,200 sq m');
      await form.getByLabel('Units', { exact: true }).fill('40');
      await form.getByLabel('Year built').fill('2019');
      await form.getByLabel('Occupancy rate (%)').fill('92');
      await form.getByLabel('Payment schedule').selectOption('quarterly');

      await form.getByLabel('New key feature').fill('Rooftop terrace');
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(form.getByRole('list', { name: 'Key features' })).toContainText('Rooftop terrace');

      await form.getByLabel('Upload document').setInputFiles({ name: `${documentName}.pdf`, mimeType: 'application/pdf', buffer: pdf() });
      await expect(form.getByLabel('Name of document 1')).toHaveValue(documentName);

      await form.getByRole('button', { name: 'Create Project' }).click();
      await expect(toast(adminPage, 'Project created successfully')).toBeVisible();
      await expect(adminPage).toHaveURL(/\/admin\/projects$/);
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Manage Projects' })).toBeVisible();
      await expect(adminPage.getByText(title)).toBeVisible();
      await adminContext.close();
    });

    let balanceBefore: number;

    await test.step('the member notes their wallet balance and finds the project by a word of its title', async () => {
      await signIn(page, fundedMember());
      balanceBefore = await amountIn(summaryCard(page, 'Wallet Balance'));
      expect(balanceBefore, 'the seeded member has dividends to invest').toBeGreaterThanOrEqual(project.invest);

      await page.goto('/projects');
      await page.getByPlaceholder('Search projects...').fill(word);
      await expect(page).toHaveURL(new RegExp(`search=${word}`));
      const cards = page.getByRole('region', { name: 'Projects' }).getByRole('article');
      await expect(cards).toHaveCount(1);
      const card = cards.first();
      await expect(card).toContainText(title);
      await expect(card).toContainText('Porto, Portugal');
      await expect(card).toContainText('Residential');
      await expect(card).toContainText('0% funded');
      await expect(card).toContainText('$0 / $1,000');
      await expect(card.getByRole('progressbar', { name: 'Funded' })).toHaveAttribute('aria-valuenow', '0');
      await expectImageLoaded(card.getByRole('img', { name: title, exact: true }));
      await card.getByRole('link', { name: title }).click();
    });

    await test.step('the project page shows the picture, the figures and the document', async () => {
      await expect(page).toHaveURL(/\/projects\/[^/]+$/);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expectImageLoaded(page.getByRole('img', { name: title, exact: true }));
      const figures = page.getByRole('definition');
      await expect(figures.filter({ hasText: '8.5%' })).toHaveCount(1);
      await expect(figures.filter({ hasText: '36 months' })).toHaveCount(1);

      await page.getByRole('tab', { name: 'Documents' }).click();
      const documents = page.getByRole('tabpanel', { name: 'Documents' });
      await expect(documents).toContainText(documentName);
      await expect(documents.getByRole('link', { name: 'View Document' })).toHaveAttribute('href', /^\/api\/projects\/assets\//);
      await expect(documents.getByRole('link', { name: 'View Document' })).toHaveAttribute('target', '_blank');
    });

    await test.step('the member invests more than the minimum and sees the project funded and the wallet reduced', async () => {
      const amount = page.getByLabel('Investment amount (USD)');
      await expect(amount).toHaveValue(String(project.minInvestment));
      await expect(page.getByRole('progressbar', { name: 'Funding progress' })).toHaveAttribute('aria-valuenow', '0');
      await expect(page.getByText('0% funded', { exact: true })).toBeVisible();
      const walletLine = page.getByText('Wallet balance', { exact: true }).locator('xpath=ancestor::p[1]');
      expect(await amountIn(walletLine)).toBeCloseTo(balanceBefore, 2);

      await amount.fill(String(project.invest));
      await page.getByRole('button', { name: 'Invest Now' }).click();
      await expect(toast(page, `Your investment of $${project.invest} is being processed`)).toBeVisible();

      await expect(page.getByRole('progressbar', { name: 'Funding progress' })).toHaveAttribute('aria-valuenow', String(percent));
      await expect(page.getByText(`${percent}% funded`, { exact: true })).toBeVisible();
      await expect(page.getByText(`$${project.invest} / $1,000`, { exact: true })).toBeVisible();
      await expect.poll(() => amountIn(walletLine)).toBeCloseTo(balanceBefore - project.invest, 2);
    });

    await test.step('the catalogue and the dashboard agree', async () => {
      await page.getByRole('link', { name: 'Back to Projects' }).first().click();
      await page.getByPlaceholder('Search projects...').fill(word);
      const card = page.getByRole('region', { name: 'Projects' }).getByRole('article');
      await expect(card).toHaveCount(1);
      await expect(card).toContainText(`${percent}% funded`);
      await expect(card).toContainText(`$${project.invest} / $1,000`);

      await page.goto('/dashboard');
      expect(await amountIn(summaryCard(page, 'Wallet Balance'))).toBeCloseTo(balanceBefore - project.invest, 2);
    });
  });
});
