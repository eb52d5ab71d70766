import { expect, test, type Page } from './support/test';
import { newMember, registerVerified, signIn, signInAdmin, type Member } from './support/members';
import { amountIn, definitionOf, fundedMember, historyRows, summaryCard, toast, walletBalanceCard } from './support/money';
import { confirmLink, confirmMailCount, newEthAddress } from './support/withdrawals';

/** The payment result pages move on to /wallet after 3 s; generous on a busy machine, never a fixed sleep. */
const REDIRECT = { timeout: 15_000 };
const DATE = /^[A-Z][a-z]{2} \d{2}, \d{4}$/;

const choosePlanHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Choose New Plan' });
const depositButton = (page: Page) => page.getByRole('button', { name: 'Deposit', exact: true });

/** Picks a pack in the plan chooser (the card is a radio button) and presses Deposit: the sandbox checkout opens. */
async function depositFor(page: Page, pack: string, price: string) {
  await expect(page.getByRole('heading', { name: 'Subscribe to a plan' })).toBeVisible();
  await expect(depositButton(page)).toBeDisabled();
  // The card is a label around an invisible radio: a click anywhere on it chooses the pack.
  const radio = page.getByRole('radio', { name: pack, exact: true });
  await radio.locator('xpath=ancestor::label[1]').click();
  await expect(radio).toBeChecked();
  await expect(depositButton(page)).toBeEnabled();
  await depositButton(page).click();

  // The built-in sandbox provider's checkout, served by our own server.
  await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: `Pay ${price}` })).toBeVisible();
  await expect(page.getByText('Sandbox payment provider: no real money moves')).toBeVisible();
}

test.describe.serial('money', () => {
  // Journeys of many steps, on a shared 2-core machine: twice the default, still bounded.
  test.describe.configure({ timeout: 120_000 });

  test('a new member buys a pack through the sandbox checkout; a second payment left to expire changes nothing', async ({ page }) => {
    let member: Member;

    await test.step('a fresh member without a pack is offered the plan chooser on /wallet', async () => {
      member = await registerVerified(newMember('buyer'));
      await signIn(page, member);
      await page.goto('/wallet');
      await expect(choosePlanHeading(page)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Back to Wallet' })).toHaveCount(0);
      await expect(page.getByRole('radio')).toHaveCount(4);
    });

    await test.step('chooses Startium, pays on the checkout page and sees the success page', async () => {
      await depositFor(page, 'Startium', '$700.00');
      await page.getByRole('button', { name: 'Pay now' }).click();

      await expect(page).toHaveURL(/\/wallet\/payment\/success$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeVisible();
      await expect(toast(page, 'Payment successful!')).toBeVisible();
    });

    await test.step('is taken back to /wallet, where the pack is active with its dates', async () => {
      await expect(page).toHaveURL(/\/wallet$/, REDIRECT);
      await expect(page.getByRole('heading', { level: 1, name: 'Plan' })).toBeVisible();

      const membership = page.getByRole('group', { name: 'Current membership' });
      await expect(membership).toContainText('Startium');
      const start = definitionOf(membership, 'Start date');
      const end = definitionOf(membership, 'End date');
      await expect(start).toHaveText(DATE);
      await expect(end).toHaveText(DATE);
      // Every pack runs three years from its activation.
      const startYear = Number((await start.textContent())!.slice(-4));
      const endYear = Number((await end.textContent())!.slice(-4));
      expect(endYear - startYear).toBe(3);

      // The pack price is not wallet money: nothing to withdraw yet.
      await expect(walletBalanceCard(page)).toContainText('$0.00');
      const deposit = historyRows(page).filter({ hasText: 'Deposit' });
      await expect(deposit).toHaveCount(1);
      await expect(deposit).toContainText('+$700.00');
      await expect(deposit).toContainText('Completed');
    });

    await test.step('the dashboard counts the pack in Total Assets, with its name', async () => {
      await page.goto('/dashboard');
      const totalAssets = summaryCard(page, 'Total Assets');
      await expect(totalAssets).toContainText('$700.00');
      await expect(totalAssets).toContainText('STARTIUM membership');
      await expect(summaryCard(page, 'Wallet Balance')).toContainText('$0.00');
    });

    await test.step('"Let it expire" on a second checkout lands on the timeout page and back on /wallet, still Startium', async () => {
      await page.goto('/wallet');
      await page.getByRole('button', { name: 'Switch Plan' }).click();
      await expect(choosePlanHeading(page)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Back to Wallet' })).toBeVisible();
      await depositFor(page, 'Ultimium', '$1,200.00');
      await page.getByRole('button', { name: 'Let it expire' }).click();

      await expect(page).toHaveURL(/\/wallet\/payment\/timeout$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Payment Timed Out' })).toBeVisible();
      await expect(toast(page, 'Payment timed out')).toBeVisible();

      await expect(page).toHaveURL(/\/wallet$/, REDIRECT);
      await expect(page.getByRole('group', { name: 'Current membership' })).toContainText('Startium');
      const expired = historyRows(page).filter({ hasText: '$1,200.00' });
      await expect(expired).toHaveCount(1);
      await expect(expired).toContainText('Deposit');
      await expect(expired).toContainText('Failed');
    });

    await test.step('the Deposit tab, the default one, lists both pack payments: the expired one offers Start again', async () => {
      await expect(page.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');
      const payments = page.getByRole('tabpanel', { name: 'Deposit' }).getByRole('table', { name: 'Pack payments' }).getByRole('row');
      const ultimium = payments.filter({ hasText: 'Ultimium' });
      await expect(ultimium).toContainText('Expired');
      await expect(ultimium).toContainText('$1,200.00');
      await expect(ultimium.getByRole('button', { name: 'Start again: buy Ultimium' })).toBeVisible();
      await expect(payments.filter({ hasText: 'Startium' })).toContainText('Settled');
      // No fixed deposit address anywhere on the page.
      await expect(page.getByText(/deposit address|only send crypto/i)).toHaveCount(0);
    });
  });

  test('a verified member withdraws, confirms the new address from the mail, the admin approves it and the member sees it paid', async ({ page, browser }) => {
    const amount = 25; // the minimum withdrawal
    // withdrawals.spec.ts follows the coin, the address book, Cancel and the explorer links in detail.
    const address = newEthAddress();
    let before: number;

    await test.step('the member asks for a withdrawal in the Withdraw panel, confirmed with the password', async () => {
      await signIn(page, fundedMember());
      await page.goto('/wallet');
      await expect(page.getByRole('heading', { level: 1, name: 'Plan' })).toBeVisible();
      before = await amountIn(walletBalanceCard(page));
      expect(before, 'the seeded member has dividends to withdraw').toBeGreaterThanOrEqual(amount);
      const mails = await confirmMailCount(fundedMember().email);

      await walletBalanceCard(page).getByRole('button', { name: 'Withdraw' }).click();
      const panel = page.getByRole('dialog', { name: 'Withdraw' });
      await expect(panel).toBeVisible();
      await panel.getByLabel('Coin').selectOption('ETH');
      await panel.getByLabel('Wallet address').fill(address);
      await panel.getByLabel('Amount (USD)').fill(String(amount));
      await panel.getByLabel('Password', { exact: true }).fill(fundedMember().password);
      await panel.getByRole('button', { name: 'Request withdrawal' }).click();

      // A new address: nothing is sent before the member follows the mailed link.
      await expect(panel.getByRole('heading', { name: 'Check your mailbox' })).toBeVisible();
      await panel.getByRole('button', { name: 'Done' }).click();
      await expect(panel).toBeHidden();
      // The amount leaves the balance when it is asked for, and waits, pending.
      await expect.poll(() => amountIn(walletBalanceCard(page))).toBeCloseTo(before - amount, 2);
      // Its description names the address, which is this run's own.
      const withdrawal = historyRows(page).filter({ hasText: address });
      await expect(withdrawal).toHaveCount(1);
      await expect(withdrawal).toContainText('Withdrawal');
      await expect(withdrawal).toContainText(`-$${amount}.00`);
      await expect(withdrawal).toContainText('Pending');

      const { link } = await confirmLink(fundedMember().email, mails + 1);
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: 'Withdrawal confirmed' })).toBeVisible();
    });

    await test.step('the admin finds it by the member’s e-mail and approves it; the sandbox provider sends it', async () => {
      const { adminContext, adminPage } = await signInAdmin(browser);
      await adminPage.goto('/admin/transactions');
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
      await adminPage.getByLabel('Search transactions').fill(fundedMember().email);
      await expect(adminPage).toHaveURL(/search=/);

      const table = adminPage.getByRole('table', { name: 'All transactions' });
      // Newest first: the member's latest pending withdrawal heads the list (the dialog below checks its address).
      const row = table.getByRole('row').filter({ hasText: 'Withdrawal' }).filter({ hasText: 'Pending' }).first();
      await expect(row).toContainText(fundedMember().email);
      await expect(row).toContainText(`-$${amount}`);
      await row.getByRole('button', { name: /^Review transaction / }).click();

      const detail = adminPage.getByRole('dialog', { name: /^Withdrawal / });
      await expect(detail).toBeVisible();
      await expect(detail).toContainText(address);
      await expect(detail.getByLabel('New status')).toHaveValue('completed');
      await detail.getByRole('button', { name: 'Update' }).click();

      await expect(toast(adminPage, 'Withdrawal status updated successfully.')).toBeVisible();
      await expect(detail.getByRole('form', { name: 'Update withdrawal status' })).toHaveCount(0);
      // Sent at once by the sandbox provider, completed by it a few seconds later.
      await expect(definitionOf(detail, 'Status')).toHaveText('Completed', { timeout: 45_000 });
      await detail.getByRole('button', { name: 'Close' }).click();
      await expect(detail).toBeHidden();
      await adminContext.close();
    });

    await test.step('the member opens /wallet again: the withdrawal is completed and the balance stays reduced', async () => {
      await page.goto('/wallet');
      const withdrawal = historyRows(page).filter({ hasText: address });
      await expect(withdrawal).toContainText('Completed');
      await expect(withdrawal).not.toContainText('Pending');
      await expect.poll(() => amountIn(walletBalanceCard(page))).toBeCloseTo(before - amount, 2);

      await page.goto('/dashboard');
      expect(await amountIn(summaryCard(page, 'Wallet Balance'))).toBeCloseTo(before - amount, 2);
    });
  });
});
