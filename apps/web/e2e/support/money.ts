import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The member scripts/e2e-seed.ts prepared before the server started: approved KYC, an active gold pack and
 * the dividends of the business days since they joined, so journeys that move money need not wait for payouts.
 * The balance is shared by every journey in a run: read it before acting and compare with it, never assume it.
 */
export const fundedMember = () => ({
  email: process.env.E2E_FUNDED_EMAIL ?? 'funded-member@e2e.terrafund.test',
  password: process.env.E2E_FUNDED_PASSWORD ?? 'e2e-funded-password',
});

/** The same member in Spanish (its account's language), with a balance of its own, for the journeys in Spanish. */
export const spanishFundedMember = () => {
  const member = fundedMember();
  return { ...member, email: member.email.replace('@', '-es@') };
};

/** A toast (react-hot-toast announces each one as a polite status) saying `text`. */
export const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

/** "$1,234.56" or "-$30.00" → 1234.56 or -30. */
export function parseUsd(text: string): number {
  const match = /(-?)\$([\d,]+(?:\.\d+)?)/.exec(text);
  if (!match) throw new Error(`no dollar amount in "${text}"`);
  return Number(`${match[1]}${match[2]!.replace(/,/g, '')}`);
}

/** The first dollar amount shown in `locator`, once one is shown. */
export async function amountIn(locator: Locator): Promise<number> {
  await expect(locator).toContainText('$');
  return parseUsd((await locator.textContent()) ?? '');
}

/** The definition (<dd>) that follows the term (<dt>) named `term` inside `container`. */
export const definitionOf = (container: Locator, term: string) =>
  container.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');

/** A dashboard summary card (Total Assets, Wallet Balance, Next Payout) by its title. */
export const summaryCard = (page: Page, title: string) => page.getByRole('group', { name: title, exact: true });

/** The wallet's balance card on /wallet. */
export const walletBalanceCard = (page: Page) => page.getByRole('group', { name: 'Wallet balance', exact: true });

/** The rows of the member's Transaction History on /wallet. */
export const historyRows = (page: Page) => page.getByRole('table', { name: 'Transaction History' }).getByRole('row');
