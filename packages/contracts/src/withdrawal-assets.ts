import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import * as Address from 'ox/Address';
import { z } from 'zod';
import { messages } from './messages';

/**
 * The coins a member can withdraw to (issue "Money out for real"): ids, names, explorers, and the codes each payout
 * provider knows them by. The API and the web form check addresses with the same functions, so the rule lives
 * here once. The libraries are audited and tree-shakeable (@scure/base, @noble/hashes, ox); nothing here needs
 * Node's Buffer.
 */

export const WITHDRAWAL_ASSET_IDS = ['BTC', 'LTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20'] as const;
export type WithdrawalAssetId = (typeof WITHDRAWAL_ASSET_IDS)[number];

export const DEFAULT_WITHDRAWAL_ASSETS: readonly WithdrawalAssetId[] = ['BTC', 'ETH', 'USDT-TRC20'];

/** The flat network fee kept from every withdrawal, in USD: the spec's "1 Crypto". */
export const WITHDRAWAL_FEE_USD_DEFAULT = 1;

/** How an address of the asset is written; several assets share one (ETH and USDT-ERC20). */
type AddressFormat = 'bitcoin' | 'litecoin' | 'ethereum' | 'tron';

export type WithdrawalAsset = {
  id: WithdrawalAssetId;
  /** What the member reads, and what "Please enter a valid <name> address" names. */
  name: string;
  network: string;
  addressFormat: AddressFormat;
  /** Block explorer pages; `{address}` and `{txHash}` are replaced (see explorerAddressUrl, explorerTxUrl). */
  explorer: { address: string; transaction: string };
  /** NOWPayments' currency code for payouts. */
  nowpaymentsCurrency: string;
  /** BTCPay Server's payout method; only on-chain BTC and LTC are sent through BTCPay. */
  btcpayPayoutMethod?: 'BTC-CHAIN' | 'LTC-CHAIN';
};

const etherscan = { address: 'https://etherscan.io/address/{address}', transaction: 'https://etherscan.io/tx/{txHash}' };

export const WITHDRAWAL_ASSET_CATALOGUE: Readonly<Record<WithdrawalAssetId, WithdrawalAsset>> = {
  BTC: {
    id: 'BTC',
    name: 'Bitcoin',
    network: 'Bitcoin',
    addressFormat: 'bitcoin',
    explorer: { address: 'https://mempool.space/address/{address}', transaction: 'https://mempool.space/tx/{txHash}' },
    nowpaymentsCurrency: 'btc',
    btcpayPayoutMethod: 'BTC-CHAIN',
  },
  LTC: {
    id: 'LTC',
    name: 'Litecoin',
    network: 'Litecoin',
    addressFormat: 'litecoin',
    explorer: { address: 'https://litecoinspace.org/address/{address}', transaction: 'https://litecoinspace.org/tx/{txHash}' },
    nowpaymentsCurrency: 'ltc',
    btcpayPayoutMethod: 'LTC-CHAIN',
  },
  ETH: {
    id: 'ETH',
    name: 'Ether',
    network: 'Ethereum',
    addressFormat: 'ethereum',
    explorer: etherscan,
    nowpaymentsCurrency: 'eth',
  },
  'USDT-ERC20': {
    id: 'USDT-ERC20',
    name: 'Tether',
    network: 'Ethereum',
    addressFormat: 'ethereum',
    explorer: etherscan,
    nowpaymentsCurrency: 'usdterc20',
  },
  'USDT-TRC20': {
    id: 'USDT-TRC20',
    name: 'Tether',
    network: 'Tron',
    addressFormat: 'tron',
    explorer: { address: 'https://tronscan.org/#/address/{address}', transaction: 'https://tronscan.org/#/transaction/{txHash}' },
    nowpaymentsCurrency: 'usdttrc20',
  },
};

export const isWithdrawalAssetId = (value: unknown): value is WithdrawalAssetId =>
  typeof value === 'string' && (WITHDRAWAL_ASSET_IDS as readonly string[]).includes(value);

export const withdrawalAsset = (id: WithdrawalAssetId): WithdrawalAsset => WITHDRAWAL_ASSET_CATALOGUE[id];

export const explorerAddressUrl = (id: WithdrawalAssetId, address: string) =>
  withdrawalAsset(id).explorer.address.replace('{address}', encodeURIComponent(address));

export const explorerTxUrl = (id: WithdrawalAssetId, txHash: string) =>
  withdrawalAsset(id).explorer.transaction.replace('{txHash}', encodeURIComponent(txHash));

/** An asset id as a request names it: exactly one of the catalogue's ids. */
export const withdrawalAssetIdSchema = z.enum(WITHDRAWAL_ASSET_IDS, { error: messages.withdrawals.assetInvalid });

/**
 * The `WITHDRAWAL_ASSETS` setting: comma-separated catalogue ids, at least one, no repeats. For config.ts, which
 * reports the issue with the variable's name.
 */
export const withdrawalAssetListSchema = z
  .string()
  .transform((text) => text.split(',').map((id) => id.trim()).filter((id) => id !== ''))
  .pipe(
    z
      .array(z.enum(WITHDRAWAL_ASSET_IDS, { error: `must list ids from ${WITHDRAWAL_ASSET_IDS.join(', ')}` }))
      .min(1, 'must list at least one coin')
      .refine((ids) => new Set(ids).size === ids.length, 'lists a coin twice'),
  );

// Address rules ----------------------------------------------------------------------------------------------

/** Base58 with the 4-byte double-SHA256 checksum, as Bitcoin, Litecoin and Tron write legacy addresses. */
const base58check = /* @__PURE__ */ createBase58check(sha256);

function base58Payload(address: string): Uint8Array | undefined {
  try {
    return base58check.decode(address);
  } catch {
    return undefined;
  }
}

/** Mainnet version bytes of a 20-byte hash (P2PKH, P2SH) behind the base58check text. */
function isBase58Address(address: string, versions: readonly number[]): boolean {
  const payload = base58Payload(address);
  return payload !== undefined && payload.length === 21 && versions.includes(payload[0] ?? -1);
}

/**
 * A segwit address of the network whose human-readable part is `hrp` (BIP-173, BIP-350). Version 0 must be
 * bech32 with a 20-byte (P2WPKH) or 32-byte (P2WSH) program; version 1 must be bech32m with a 32-byte program
 * (taproot). Later versions decode but are refused: nothing can spend them yet, so coins sent there are lost.
 */
function isSegwitAddress(address: string, hrp: string): boolean {
  for (const [coder, wantsV0] of [
    [bech32, true],
    [bech32m, false],
  ] as const) {
    let decoded: { prefix: string; words: number[] };
    try {
      decoded = coder.decode(address as `${string}1${string}`);
    } catch {
      continue;
    }
    const [version, ...programWords] = decoded.words;
    if (decoded.prefix !== hrp || version === undefined) return false;
    const program = coder.fromWordsUnsafe(programWords);
    if (!program) return false;
    if (wantsV0) return version === 0 && (program.length === 20 || program.length === 32);
    return version === 1 && program.length === 32;
  }
  return false;
}

/**
 * Legacy or segwit, chosen by the text: a bech32 string starts with its human-readable part and "1", which no
 * mainnet base58 address of these coins does (base58 has no "l", and Bitcoin's starts with 1 or 3).
 */
function isUtxoAddress(address: string, hrp: string, base58Versions: readonly number[]): boolean {
  if (address.toLowerCase().startsWith(`${hrp}1`)) return isSegwitAddress(address, hrp);
  return isBase58Address(address, base58Versions);
}

/**
 * `0x` and 40 hex digits. All-lowercase and all-uppercase digits carry no checksum (EIP-55); mixed case is a
 * checksum and must be the right one, which ox checks against the Keccak-256 of the address.
 */
function isEthereumAddress(address: string): boolean {
  const digits = address.slice(2);
  const uncased = digits === digits.toLowerCase() || digits === digits.toUpperCase();
  return Address.validate(address, { strict: !uncased });
}

const ADDRESS_RULES: Record<AddressFormat, (address: string) => boolean> = {
  // P2PKH 0x00 (1…), P2SH 0x05 (3…), segwit bc1…
  bitcoin: (address) => isUtxoAddress(address, 'bc', [0x00, 0x05]),
  // P2PKH 0x30 (L…), P2SH 0x32 (M…), segwit ltc1…. The old 0x05 (3…) P2SH form is refused: it is byte for byte a
  // Bitcoin P2SH address, so a Bitcoin address pasted in the Litecoin form would pass; wallets show M… today.
  litecoin: (address) => isUtxoAddress(address, 'ltc', [0x30, 0x32]),
  ethereum: isEthereumAddress,
  // Version 0x41 and a 20-byte hash: T…
  tron: (address) => isBase58Address(address, [0x41]),
};

/**
 * True when `address` is a mainnet address the asset's network can receive on. Testnet addresses, another
 * network's address and checksum errors are false. The text is taken as given: trim it first.
 */
export function isValidWithdrawalAddress(asset: WithdrawalAssetId, address: string): boolean {
  if (typeof address !== 'string' || address.length === 0 || address.length > 100) return false;
  return ADDRESS_RULES[withdrawalAsset(asset).addressFormat](address);
}

/**
 * For a request schema with `asset` and `walletAddress`: `z.object({...}).superRefine(refineWithdrawalAddress)`
 * puts "Please enter a valid <name> address" on `walletAddress`, which the API answers as
 * `{fields: {walletAddress: …}}` and the form shows under the field.
 */
export function refineWithdrawalAddress(value: { asset: WithdrawalAssetId; walletAddress: string }, ctx: z.RefinementCtx) {
  if (isValidWithdrawalAddress(value.asset, value.walletAddress)) return;
  ctx.addIssue({
    code: 'custom',
    path: ['walletAddress'],
    message: messages.withdrawals.invalidAddress(withdrawalAsset(value.asset).name),
  });
}

// Transaction hashes ------------------------------------------------------------------------------------------

const TX_HASH_PATTERNS: Record<AddressFormat, RegExp> = {
  bitcoin: /^[0-9a-fA-F]{64}$/,
  litecoin: /^[0-9a-fA-F]{64}$/,
  ethereum: /^0x[0-9a-fA-F]{64}$/,
  tron: /^[0-9a-fA-F]{64}$/,
};

/** How a transaction id of the asset's network is written: 64 hex digits, with `0x` on Ethereum. */
export const txHashPattern = (asset: WithdrawalAssetId): RegExp => TX_HASH_PATTERNS[withdrawalAsset(asset).addressFormat];

export const isValidTxHash = (asset: WithdrawalAssetId, hash: string): boolean =>
  typeof hash === 'string' && txHashPattern(asset).test(hash);
