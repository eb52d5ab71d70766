import { expect, test, type Page } from './support/test';
import { textsOf } from './support/catalogue';
import { mailsTo } from './support/mailbox';
import { newMember, registerVerified, signIn } from './support/members';
import { spanishFundedMember, toast } from './support/money';
import { confirmLink, confirmMailCount, newEthAddress } from './support/withdrawals';

/**
 * A deposit and a withdrawal in Spanish (issue 35), in a Spanish browser, by members whose account speaks Spanish:
 * every text pressed or read is the Spanish catalogue's (packages/contracts/src/i18n/es), and the amounts are said
 * the Spanish way (`700,00 US$`). money.spec.ts follows the same journeys in English, step by step.
 */
test.use({ locale: 'es-ES' });

const wallet = textsOf('es', 'wallet');
const said = textsOf('es', 'messages');
const common = textsOf('es', 'common');
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
/** "1.234,56 US$" → 1234.56: the first amount in Spanish in `text`. */
const spanishUsd = (text: string) => {
  const match = /(-?)([\d.]+,\d{2})\s?US\$/.exec(text);
  if (!match) throw new Error(`no amount in Spanish in "${text}"`);
  return Number(`${match[1]}${match[2]!.replace(/\./g, '').replace(',', '.')}`);
};

test.describe.serial('money in Spanish', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a new member buys a pack in Spanish through the sandbox checkout, and sees it active', async ({ page }) => {
    const member = await registerVerified(newMember('es-buyer'), { locale: 'es' });
    await signIn(page, member, { language: 'es' });
    expect(await htmlLang(page)).toBe('es');
    await page.goto('/wallet');
    await expect(page.getByRole('heading', { level: 1, name: wallet('plans.title') })).toBeVisible();
    await expect(page.getByRole('heading', { name: wallet('plans.subscribe') })).toBeVisible();

    const deposit = page.getByRole('button', { name: wallet('plans.deposit'), exact: true });
    await expect(deposit).toBeDisabled();
    const radio = page.getByRole('radio', { name: 'Startium', exact: true });
    await radio.locator('xpath=ancestor::label[1]').click();
    await expect(radio).toBeChecked();
    // The pack's price, the Spanish way.
    await expect(radio.locator('xpath=ancestor::label[1]')).toContainText('700,00 US$');
    await deposit.click();

    // The built-in sandbox provider's checkout (the provider's page, not ours: in English).
    await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\/[^/]+$/);
    await page.getByRole('button', { name: 'Pay now' }).click();

    await expect(page).toHaveURL(/\/wallet\/payment\/success$/);
    await expect(page.getByRole('heading', { level: 1, name: wallet('result.success.title') })).toBeVisible();
    await expect(toast(page, said('toasts.paymentSuccess'))).toBeVisible();

    await expect(page).toHaveURL(/\/wallet$/, { timeout: 15_000 });
    await expect(page.getByRole('heading', { level: 1, name: wallet('page.title') })).toBeVisible();
    await expect(page.getByRole('group', { name: wallet('membership.current') })).toContainText('Startium');
    const history = page.getByRole('table', { name: wallet('history.title') }).getByRole('row');
    const row = history.filter({ hasText: wallet('transactionTypes.deposit') });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('+700,00 US$');
    await expect(row).toContainText(common('status.completed'));
  });

  test('a verified member asks for a withdrawal in Spanish and confirms the new address from the Spanish mail', async ({ page }) => {
    const member = spanishFundedMember();
    const address = newEthAddress();
    await signIn(page, member, { language: 'es' });
    await page.goto('/wallet');
    const balance = page.getByRole('group', { name: wallet('overview.balance'), exact: true });
    await expect(balance).toContainText('US$');
    const before = spanishUsd((await balance.textContent()) ?? '');
    expect(before, 'the seeded member has dividends to withdraw').toBeGreaterThanOrEqual(25);
    const mails = await confirmMailCount(member.email);

    await balance.getByRole('button', { name: wallet('overview.withdraw') }).click();
    const panel = page.getByRole('dialog', { name: wallet('withdraw.title') });
    await expect(panel).toBeVisible();
    await panel.getByLabel(wallet('withdraw.coin')).selectOption('ETH');
    await panel.getByLabel(wallet('withdraw.address')).fill(address);
    await panel.getByLabel(wallet('withdraw.amount')).fill('25');
    await panel.getByLabel(wallet('withdraw.password'), { exact: true }).fill(member.password);
    await panel.getByRole('button', { name: wallet('withdraw.submit') }).click();

    await expect(panel.getByRole('heading', { name: wallet('withdraw.checkMailbox') })).toBeVisible();
    await panel.getByRole('button', { name: wallet('withdraw.done') }).click();
    await expect(panel).toBeHidden();
    await expect.poll(async () => spanishUsd((await balance.textContent()) ?? '')).toBeCloseTo(before - 25, 2);
    const withdrawal = page.getByRole('table', { name: wallet('history.title') }).getByRole('row').filter({ hasText: address });
    await expect(withdrawal).toContainText(wallet('transactionTypes.withdrawal'));
    await expect(withdrawal).toContainText('-25,00 US$');
    await expect(withdrawal).toContainText(common('status.pending'));

    // The mail is the member's language: its subject and its text, with the link to follow.
    const { link } = await confirmLink(member.email, mails + 1);
    const subject = textsOf('es', 'mail')('withdrawalConfirm.subject');
    expect((await mailsTo(member.email, /./)).filter((mail) => mail.subject.startsWith(subject))).toHaveLength(mails + 1);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: wallet('confirmation.confirmed') })).toBeVisible();
    expect(await htmlLang(page)).toBe('es');
  });
});
