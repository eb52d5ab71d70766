import { expect, test, type Page } from './support/test';
import { signIn, signInAdmin } from './support/members';
import { amountIn, definitionOf, fundedMember, historyRows, toast, walletBalanceCard } from './support/money';
import { confirmLink, confirmMailCount, newEthAddress } from './support/withdrawals';

/** The sandbox payout provider completes a payout SANDBOX_PAYOUT_SECONDS (3) after it is sent; the job looks every 5 s. */
const PAYOUT = { timeout: 45_000 };
/** The first look after a full page load: the app starts again, which takes seconds on a shared 2-core machine. */
const LOAD = { timeout: 30_000 };

const withdrawPanel = (page: Page) => page.getByRole('dialog', { name: 'Withdraw' });
const pendingList = (page: Page) => page.getByRole('list', { name: 'Pending withdrawals' });

/** Opens the Withdraw panel and fills it: Ether on Ethereum, the address, the amount and the password. */
async function fillWithdrawal(page: Page, address: string, amount: number) {
  await walletBalanceCard(page).getByRole('button', { name: 'Withdraw' }).click();
  const panel = withdrawPanel(page);
  await panel.getByLabel('Coin').selectOption('ETH');
  await panel.getByLabel('Wallet address').fill(address);
  await panel.getByLabel('Amount (USD)').fill(String(amount));
  await panel.getByLabel('Password', { exact: true }).fill(fundedMember().password);
  return panel;
}

test.describe.serial('withdrawals', () => {
  test.describe.configure({ timeout: 150_000 });

  const address = newEthAddress();
  const amount = 30;

  test('a member withdraws to a new address, confirms it from the mail, cancels a second one and manages the address book', async ({
    page,
    problems,
  }, testInfo) => {
    // The used link opened a second time, on purpose.
    problems.allowResponse(/\/api\/withdrawals\/confirm$/, 400);
    let before: number;

    await test.step('the panel checks the address for the chosen coin as it is typed, and shows the fee and what arrives', async () => {
      await signIn(page, fundedMember());
      await page.goto('/wallet');
      await expect(walletBalanceCard(page)).toContainText('$', LOAD);
      before = await amountIn(walletBalanceCard(page));
      expect(before, 'the seeded member has dividends to withdraw').toBeGreaterThanOrEqual(amount + 25);

      await walletBalanceCard(page).getByRole('button', { name: 'Withdraw' }).click();
      const panel = withdrawPanel(page);
      const coin = panel.getByLabel('Coin');
      await expect(coin.getByRole('option')).toHaveText(['Bitcoin', 'Ether on Ethereum', 'Tether on Tron']);
      await coin.selectOption('ETH');
      // A Bitcoin address is not an Ethereum one: said before anything is sent.
      await panel.getByLabel('Wallet address').fill('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
      await expect(panel.getByText('Please enter a valid Ether address')).toBeVisible();
      await panel.getByLabel('Wallet address').fill(address);
      await expect(panel.getByText('Please enter a valid Ether address')).toBeHidden();
      await panel.getByLabel('Amount (USD)').fill(String(amount));
      await panel.getByLabel('Password', { exact: true }).fill(fundedMember().password);
      await expect(panel.getByText('Network fee').locator('xpath=following-sibling::dd[1]')).toHaveText('$1.00');
      await expect(panel.getByText('You receive').locator('xpath=following-sibling::dd[1]')).toHaveText('$29.00 in Ether');
      await panel.screenshot({ path: testInfo.outputPath('withdraw-panel.png') });
    });

    let mails: number;
    await test.step('a first withdrawal to the address waits for the mailed link', async () => {
      mails = await confirmMailCount(fundedMember().email);
      const panel = withdrawPanel(page);
      await panel.getByRole('button', { name: 'Request withdrawal' }).click();
      await expect(panel.getByRole('heading', { name: 'Check your mailbox' })).toBeVisible();
      await expect(panel).toContainText(address);
      await panel.getByRole('button', { name: 'Done' }).click();
      await expect(panel).toBeHidden();

      // Held at once, and listed as waiting for the member's confirmation.
      await expect.poll(() => amountIn(walletBalanceCard(page))).toBeCloseTo(before - amount, 2);
      const item = pendingList(page).getByRole('listitem').filter({ hasText: address });
      await expect(item).toContainText('Waiting for your confirmation');
      await expect(item).toContainText('Ether on Ethereum');
    });

    await test.step('the mailed link, opened in a browser without a session, confirms it', async () => {
      const { link, body } = await confirmLink(fundedMember().email, mails + 1);
      expect(body).toContain(address);
      const visitor = await page.context().browser()!.newContext();
      const confirmPage = await visitor.newPage();
      await confirmPage.goto(link);
      await expect(confirmPage.getByRole('heading', { level: 1, name: 'Withdrawal confirmed' })).toBeVisible(LOAD);
      await expect(confirmPage.getByText('Withdrawal confirmed. It will be sent once approved.')).toBeVisible();
      await expect(confirmPage.getByText(address)).toBeVisible();
      await expect(confirmPage.getByText('Ether on Ethereum')).toBeVisible();
      await expect(confirmPage.getByText(`$${amount}.00`)).toBeVisible();

      // The link works once.
      await confirmPage.reload();
      await expect(confirmPage.getByRole('heading', { level: 1, name: 'This link cannot be used' })).toBeVisible(LOAD);
      await expect(confirmPage.getByRole('alert')).toHaveText('This confirmation link is invalid or has already been used');
      await visitor.close();

      await page.reload();
      await expect(pendingList(page).getByRole('listitem').filter({ hasText: address }).first()).toContainText('Waiting for approval', LOAD);
    });

    await test.step('a second withdrawal to the now confirmed address needs no mail, and Cancel returns it at once', async () => {
      const panel = await fillWithdrawal(page, address, 25);
      await panel.getByRole('button', { name: 'Request withdrawal' }).click();
      await expect(toast(page, 'Your withdrawal of 25 Crypto is being processed')).toBeVisible();
      await expect(panel).toBeHidden();
      await expect.poll(() => amountIn(walletBalanceCard(page))).toBeCloseTo(before - amount - 25, 2);
      expect(await confirmMailCount(fundedMember().email)).toBe(mails + 1);

      const second = pendingList(page).getByRole('listitem').filter({ hasText: address }).filter({ hasText: '$25.00' });
      await expect(second).toContainText('Waiting for approval');
      await second.getByRole('button', { name: /^Cancel the withdrawal of \$25\.00/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this withdrawal?' });
      await expect(dialog).toContainText('$25.00 returns to your wallet balance at once.');
      await dialog.getByRole('button', { name: 'Cancel withdrawal' }).click();

      await expect(toast(page, 'Withdrawal cancelled. The amount is back in your wallet.')).toBeVisible();
      await expect(second).toHaveCount(0);
      await expect.poll(() => amountIn(walletBalanceCard(page))).toBeCloseTo(before - amount, 2);
      const cancelled = historyRows(page).filter({ hasText: address }).filter({ hasText: 'Failed' });
      await expect(cancelled).toHaveCount(1);
      await cancelled.getByRole('button', { name: /^Track withdrawal/ }).click();
      const timeline = page.getByRole('dialog', { name: 'Withdrawal details' }).getByRole('list', { name: 'Timeline' });
      await expect(timeline).toContainText('Cancelled');
      await expect(timeline).toContainText('Cancelled by you');
      await page.getByRole('dialog', { name: 'Withdrawal details' }).getByRole('button', { name: 'Close' }).click();
    });

    await test.step('the Profile lists the confirmed address in the address book, and Remove takes it out', async () => {
      await page.goto('/profile');
      // A full page load on a shared machine: the app starts again before the Profile shows.
      await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible(LOAD);
      const book = page.getByRole('list', { name: 'Withdrawal addresses' });
      const entry = book.getByRole('listitem').filter({ hasText: address });
      await expect(entry).toContainText('Ether on Ethereum');
      await expect(entry).toContainText(/Confirmed .* last used/);

      await entry.getByRole('button', { name: `Remove Ether on Ethereum address ${address}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove this address?' });
      await expect(dialog).toContainText('A later withdrawal to it will have to be confirmed by mail again.');
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await expect(toast(page, 'Address removed')).toBeVisible();
      await expect(entry).toHaveCount(0);
    });
  });

  test('the admin approves it, the sandbox payout provider sends it, and both see the transaction hash', async ({ page, browser }, testInfo) => {
    const { adminContext, adminPage } = await signInAdmin(browser);

    await test.step('the withdrawal shows its coin, network, address with an explorer link, and no hash to type', async () => {
      await adminPage.goto('/admin/transactions');
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible(LOAD);
      await adminPage.getByLabel('Search transactions').fill(fundedMember().email);
      await expect(adminPage).toHaveURL(/search=/);
      const row = adminPage
        .getByRole('table', { name: 'All transactions' })
        .getByRole('row')
        .filter({ hasText: 'Withdrawal' })
        .filter({ hasText: 'Pending' })
        .filter({ hasText: `-$${amount}` })
        .first();
      await row.getByRole('button', { name: /^Review transaction / }).click();

      const detail = adminPage.getByRole('dialog', { name: /^Withdrawal / });
      await expect(detail).toContainText(address);
      await expect(definitionOf(detail, 'Coin')).toHaveText('Ether');
      await expect(definitionOf(detail, 'Network')).toHaveText('Ethereum');
      await expect(definitionOf(detail, 'Stage')).toHaveText('Waiting for approval');
      await expect(detail.getByRole('link', { name: /View the address on the block explorer/ })).toHaveAttribute(
        'href',
        `https://etherscan.io/address/${address}`,
      );
      await expect(detail.getByLabel('New status')).toHaveValue('completed');
      await expect(detail.getByLabel(/Transaction hash/)).toHaveCount(0);
    });

    await test.step('approved, it is sent by the provider and completes with a transaction hash', async () => {
      const detail = adminPage.getByRole('dialog', { name: /^Withdrawal / });
      await detail.getByRole('button', { name: 'Update' }).click();
      await expect(toast(adminPage, 'Withdrawal status updated successfully.')).toBeVisible();
      await expect(detail.getByRole('form', { name: 'Update withdrawal status' })).toHaveCount(0);
      await expect(detail.getByRole('list', { name: 'Approvals' })).toContainText('admin@e2e.terrafund.test');

      await expect(definitionOf(detail, 'Stage')).toHaveText('Completed', PAYOUT);
      await expect(definitionOf(detail, 'Status')).toHaveText('Completed');
      await expect(definitionOf(detail, 'Payout')).toContainText('sandbox');
      await expect(detail.getByRole('link', { name: /View the transaction on the block explorer/ })).toHaveAttribute(
        'href',
        /^https:\/\/etherscan\.io\/tx\/.+/,
      );
      await expect(definitionOf(detail, 'Transaction hash')).toHaveText(/[0-9a-fA-F]{64}/);
      await detail.screenshot({ path: testInfo.outputPath('admin-withdrawal-detail.png') });
      await adminContext.close();
    });

    await test.step('the member sees it completed, with the hash and its explorer link on the timeline', async () => {
      await signIn(page, fundedMember());
      await page.goto('/wallet');
      const paid = historyRows(page).filter({ hasText: address }).filter({ hasText: 'Completed' });
      await expect(paid).toHaveCount(1, LOAD);
      await paid.getByRole('button', { name: /^Track withdrawal/ }).click();
      const timeline = page.getByRole('dialog', { name: 'Withdrawal details' }).getByRole('list', { name: 'Timeline' });
      await expect(timeline).toContainText('Confirmed by you');
      await expect(timeline).toContainText('Approved');
      await expect(timeline).toContainText('Sent to the network');
      await expect(timeline).toContainText(/Transaction hash: (0x)?[0-9a-fA-F]{64}/);
      await expect(timeline.getByRole('link', { name: /View on the block explorer/ })).toHaveAttribute('href', /^https:\/\/etherscan\.io\/tx\//);
    });
  });
});
