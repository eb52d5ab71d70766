import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import { isValidWithdrawalAddress, type WithdrawalAssetId } from '@terrafund/contracts';
import { withdrawalAddresses } from '../src/db/schema';
import { memberAccount, platformAccount, postEntry } from '../src/modules/ledger';
import type { OutgoingMail } from '../src/modules/mail/mail.transport';
import { DEFAULT_PASSWORD, type TestContext } from './test-app';

/** A valid mainnet address of each coin (checked below, so a change of the rule shows here first). */
export const ADDRESSES: Record<WithdrawalAssetId, string> = {
  BTC: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  LTC: 'LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1',
  ETH: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  'USDT-ERC20': '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  'USDT-TRC20': 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
};
for (const [asset, address] of Object.entries(ADDRESSES)) {
  if (!isValidWithdrawalAddress(asset as WithdrawalAssetId, address)) throw new Error(`test address of ${asset} is not valid: ${address}`);
}

/** A transaction hash of the coin's shape (64 hex digits, 0x-prefixed on Ethereum). */
export const txHashFor = (asset: WithdrawalAssetId = 'BTC', digit = 'a') =>
  asset === 'ETH' || asset === 'USDT-ERC20' ? `0x${digit.repeat(64)}` : digit.repeat(64);

/** A valid withdrawal request body: Bitcoin to a valid address, with the default test password as the step-up. */
export const withdrawalBody = (amount: unknown, overrides: Record<string, unknown> = {}) => ({
  type: 'withdrawal',
  amount,
  walletAddress: ADDRESSES.BTC,
  asset: 'BTC',
  password: DEFAULT_PASSWORD,
  ...overrides,
});

/** Puts an address in the member's book as if confirmed by mail: withdrawals to it wait for an admin at once. */
export async function bookAddress(ctx: TestContext, userId: string, asset: WithdrawalAssetId = 'BTC', address = ADDRESSES[asset]) {
  await ctx.database.db
    .insert(withdrawalAddresses)
    .values({ userId, asset, address, confirmedAt: ctx.clock.now() })
    .onConflictDoNothing();
}

/** Credits `cents` to a member's wallet (as the dividend job credits it). */
export async function fundWallet(ctx: TestContext, userId: string, cents: number, key = `test-fund:${userId}:${cents}:${Math.random()}`) {
  return ctx.database.db.transaction(async (tx) => {
    const wallet = await memberAccount(tx, userId, 'member_wallet');
    const source = await platformAccount(tx, 'platform_dividends_paid');
    return postEntry(tx, { clock: ctx.clock }, {
      kind: 'payout',
      idempotencyKey: key,
      description: 'test funding',
      lines: [
        { accountId: wallet, amountCents: cents },
        { accountId: source, amountCents: -cents },
      ],
    });
  });
}

/** The token of the latest confirmation link mailed to `email`. */
export function confirmTokenFrom(mail: OutgoingMail[], email: string): string {
  const link = [...mail].reverse().find((m) => m.to === email && /withdrawals\/confirm\?token=/.test(m.text));
  const match = link?.text.match(/withdrawals\/confirm\?token=([A-Za-z0-9_%-]+)/);
  if (!match) throw new Error(`no confirmation link mailed to ${email}`);
  return decodeURIComponent(match[1]!);
}

/** A valid Bitcoin (P2WPKH) address of its own for each seed: requests told apart by their address. */
export function btcAddress(seed: string): string {
  const program = sha256(new TextEncoder().encode(seed)).slice(0, 20);
  return bech32.encode('bc', [0, ...bech32.toWords(program)]);
}
