import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messages } from './messages';
import {
  DEFAULT_WITHDRAWAL_ASSETS,
  explorerAddressUrl,
  explorerTxUrl,
  isValidTxHash,
  isValidWithdrawalAddress,
  refineWithdrawalAddress,
  WITHDRAWAL_ASSET_CATALOGUE,
  WITHDRAWAL_ASSET_IDS,
  WITHDRAWAL_FEE_USD_DEFAULT,
  withdrawalAssetIdSchema,
  withdrawalAssetListSchema,
  type WithdrawalAssetId,
} from './withdrawal-assets';

const valid = (asset: WithdrawalAssetId, address: string) => isValidWithdrawalAddress(asset, address);

/** One character replaced by another of the same alphabet: what a typo does. */
function mutate(address: string, index: number): string {
  const char = address[index] ?? '';
  const alphabet = /[0-9a-f]/.test(char) ? '0123456789abcdef' : /[A-F]/.test(char) ? 'ABCDEF0123456789' : '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const replacement = [...alphabet].find((c) => c !== char && c.toLowerCase() !== char.toLowerCase()) ?? '2';
  return address.slice(0, index) + replacement + address.slice(index + 1);
}

// Encoders from the same audited library, used only to build addresses of other versions and networks from a
// known 20-byte hash (the one behind BIP-173's example address) so each refusal is for the reason under test.
const base58check = createBase58check(sha256);
const HASH160 = hex.decode('751e76e8199196d454941c45d1b3a323f1433bd6');
const legacy = (version: number, hash = HASH160) => base58check.encode(Uint8Array.from([version, ...hash]));
const segwit = (hrp: string, version: number, program: Uint8Array) =>
  (version === 0 ? bech32 : bech32m).encode(hrp, [version, ...(version === 0 ? bech32 : bech32m).toWords(program)]);

describe('the catalogue', () => {
  it('holds the five coins with their ids, names, networks and provider codes', () => {
    expect(WITHDRAWAL_ASSET_IDS).toEqual(['BTC', 'LTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20']);
    expect(DEFAULT_WITHDRAWAL_ASSETS).toEqual(['BTC', 'ETH', 'USDT-TRC20']);
    expect(WITHDRAWAL_FEE_USD_DEFAULT).toBe(1);
    const summary = Object.values(WITHDRAWAL_ASSET_CATALOGUE).map((a) => [a.id, a.name, a.network, a.nowpaymentsCurrency, a.btcpayPayoutMethod]);
    expect(summary).toEqual([
      ['BTC', 'Bitcoin', 'Bitcoin', 'btc', 'BTC-CHAIN'],
      ['LTC', 'Litecoin', 'Litecoin', 'ltc', 'LTC-CHAIN'],
      ['ETH', 'Ether', 'Ethereum', 'eth', undefined],
      ['USDT-ERC20', 'Tether', 'Ethereum', 'usdterc20', undefined],
      ['USDT-TRC20', 'Tether', 'Tron', 'usdttrc20', undefined],
    ]);
  });

  it('links addresses and transactions to each network explorer', () => {
    expect(explorerAddressUrl('BTC', 'bc1qxyz')).toBe('https://mempool.space/address/bc1qxyz');
    expect(explorerTxUrl('LTC', 'ab'.repeat(32))).toBe(`https://litecoinspace.org/tx/${'ab'.repeat(32)}`);
    expect(explorerTxUrl('USDT-ERC20', `0x${'1'.repeat(64)}`)).toBe(`https://etherscan.io/tx/0x${'1'.repeat(64)}`);
    expect(explorerAddressUrl('USDT-TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(
      'https://tronscan.org/#/address/TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    expect(explorerAddressUrl('ETH', 'a/b?c')).toBe('https://etherscan.io/address/a%2Fb%3Fc');
  });

  it('reads the WITHDRAWAL_ASSETS setting strictly', () => {
    expect(withdrawalAssetListSchema.parse('BTC,ETH,USDT-TRC20')).toEqual(['BTC', 'ETH', 'USDT-TRC20']);
    expect(withdrawalAssetListSchema.parse(' LTC , USDT-ERC20 ')).toEqual(['LTC', 'USDT-ERC20']);
    for (const bad of ['', ',', 'BTC,DOGE', 'btc', 'BTC,BTC', 'USDT']) {
      expect(withdrawalAssetListSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(withdrawalAssetIdSchema.safeParse('XMR').error?.issues[0]?.message).toBe(messages.withdrawals.assetInvalid);
  });
});

describe('Bitcoin addresses', () => {
  it('accepts real mainnet P2PKH and P2SH addresses', () => {
    expect(valid('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true); // the genesis block's
    expect(valid('BTC', '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH')).toBe(true); // HASH160 as P2PKH
    expect(valid('BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(true);
    expect(legacy(0x00)).toBe('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH');
    expect(valid('BTC', legacy(0x05))).toBe(true);
  });

  it('accepts the BIP-350 mainnet v0 and v1 (taproot) vectors, in either case', () => {
    for (const address of [
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      segwit('bc', 0, new Uint8Array(32).fill(7)), // P2WSH
    ]) {
      expect(valid('BTC', address), address).toBe(true);
    }
  });

  it('refuses the BIP-350 invalid segwit addresses', () => {
    for (const address of [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', // bech32 instead of bech32m
      'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', // bech32m instead of bech32
      'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', // invalid character in checksum
      'BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', // invalid witness version
      'bc1pw5dgrnzv', // 1-byte program
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', // 41 bytes
      'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', // 16 bytes for v0
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', // zero padding of more than 4 bits
      'bc1gmk9yu', // empty data
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', // one character off in the checksum
      'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // mixed case
    ]) {
      expect(valid('BTC', address), address).toBe(false);
    }
  });

  it('refuses valid segwit versions nothing can spend yet (v1 of another length, v2 to v16)', () => {
    for (const address of [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', // v1, 40 bytes
      'BC1SW50QGDZ25J', // v16
      'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', // v2
    ]) {
      expect(bech32m.decode(address.toLowerCase() as `${string}1${string}`).prefix).toBe('bc');
      expect(valid('BTC', address), address).toBe(false);
    }
  });

  it('refuses testnet, regtest and unknown versions', () => {
    for (const address of [
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
      segwit('bcrt', 0, HASH160),
      segwit('tc', 0, HASH160),
      legacy(0x6f), // m… / n…
      legacy(0xc4), // 2…
      legacy(0x01),
    ]) {
      expect(valid('BTC', address), address).toBe(false);
    }
    expect(legacy(0x6f)).toMatch(/^[mn]/);
    expect(legacy(0xc4)).toMatch(/^2/);
  });

  it('refuses a changed character, a wrong length and other coins', () => {
    const genesis = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
    for (let i = 1; i < genesis.length; i += 5) expect(valid('BTC', mutate(genesis, i)), mutate(genesis, i)).toBe(false);
    expect(valid('BTC', base58check.encode(Uint8Array.from([0, ...HASH160, 1])))).toBe(false); // 21-byte hash
    expect(valid('BTC', legacy(0x30))).toBe(false); // Litecoin L…
    expect(valid('BTC', segwit('ltc', 0, HASH160))).toBe(false);
    expect(valid('BTC', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
    expect(valid('BTC', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(valid('BTC', ` ${genesis}`)).toBe(false);
    expect(valid('BTC', '')).toBe(false);
  });
});

describe('Litecoin addresses', () => {
  it('accepts L… (P2PKH), M… (P2SH) and ltc1 segwit v0 and v1', () => {
    expect(legacy(0x30)).toMatch(/^L/);
    expect(legacy(0x32)).toMatch(/^M/);
    for (const address of [legacy(0x30), legacy(0x32), segwit('ltc', 0, HASH160), segwit('ltc', 0, new Uint8Array(32)), segwit('ltc', 1, new Uint8Array(32).fill(1))]) {
      expect(valid('LTC', address), address).toBe(true);
    }
    expect(valid('LTC', segwit('ltc', 0, HASH160).toUpperCase())).toBe(true);
  });

  it('refuses the old 3… P2SH form, which is a Bitcoin address byte for byte', () => {
    expect(valid('LTC', legacy(0x05))).toBe(false);
    expect(valid('LTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(false);
  });

  it('refuses testnet, Bitcoin addresses and typos', () => {
    for (const address of [
      segwit('tltc', 0, HASH160),
      legacy(0x6f),
      legacy(0x3a), // Q… testnet P2SH
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      mutate(legacy(0x30), 9),
      mutate(segwit('ltc', 0, HASH160), 12),
      segwit('ltc', 0, new Uint8Array(16)),
      segwit('ltc', 2, new Uint8Array(32)),
    ]) {
      expect(valid('LTC', address), address).toBe(false);
    }
  });
});

describe('Ethereum addresses (ETH and USDT-ERC20)', () => {
  // The test vectors of EIP-55.
  const EIP55 = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('accepts the EIP-55 vectors for both assets', () => {
    for (const address of EIP55) {
      expect(valid('ETH', address), address).toBe(true);
      expect(valid('USDT-ERC20', address), address).toBe(true);
    }
  });

  it('accepts all-lowercase and all-uppercase digits, which carry no checksum', () => {
    for (const address of EIP55.slice(4)) {
      expect(valid('ETH', `0x${address.slice(2).toLowerCase()}`)).toBe(true);
      expect(valid('ETH', `0x${address.slice(2).toUpperCase()}`)).toBe(true);
    }
  });

  it('refuses a mixed-case address whose case does not match its checksum', () => {
    const address = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    // Flip the case of one letter at a time: each one breaks the checksum.
    const letters = [...address].flatMap((c, i) => (i > 1 && /[a-f]/i.test(c) ? [i] : []));
    expect(letters.length).toBeGreaterThan(10);
    for (const index of letters) {
      const char = address[index] ?? '';
      const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
      const changed = address.slice(0, index) + flipped + address.slice(index + 1);
      expect(changed).not.toBe(address);
      expect(valid('ETH', changed), changed).toBe(false);
    }
    // A digit changed in a checksummed address.
    expect(valid('ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAee')).toBe(false);
  });

  it('refuses other shapes and other coins', () => {
    for (const address of [
      '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedd',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    ]) {
      expect(valid('ETH', address), address).toBe(false);
    }
  });
});

describe('Tron addresses (USDT-TRC20)', () => {
  it('accepts real T… addresses', () => {
    expect(valid('USDT-TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true); // the USDT contract
    expect(valid('USDT-TRC20', legacy(0x41))).toBe(true);
    expect(legacy(0x41)).toMatch(/^T/);
  });

  it('refuses typos, other versions, the hex form and other coins', () => {
    const usdt = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    for (let i = 1; i < usdt.length; i += 6) expect(valid('USDT-TRC20', mutate(usdt, i)), mutate(usdt, i)).toBe(false);
    for (const address of [
      legacy(0xa0), // the old testnet version
      legacy(0x00),
      `41${hex.encode(HASH160)}`,
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    ]) {
      expect(valid('USDT-TRC20', address), address).toBe(false);
    }
    expect(valid('USDT-TRC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(valid('ETH', usdt)).toBe(false);
  });
});

describe('the request schema helper', () => {
  const body = z.object({ asset: withdrawalAssetIdSchema, walletAddress: z.string().trim() }).superRefine(refineWithdrawalAddress);

  it('puts the coin-named message on walletAddress', () => {
    const result = body.safeParse({ asset: 'BTC', walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['walletAddress'], message: 'Please enter a valid Bitcoin address' })]);
    const tron = body.safeParse({ asset: 'USDT-TRC20', walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' });
    expect(tron.error?.issues[0]?.message).toBe('Please enter a valid Tether address');
  });

  it('passes a valid address, trimmed', () => {
    expect(body.parse({ asset: 'ETH', walletAddress: ' 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed ' })).toEqual({
      asset: 'ETH',
      walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
  });
});

describe('transaction hashes', () => {
  it('takes 64 hex digits, with 0x on Ethereum', () => {
    const digits = 'a1'.repeat(32);
    expect(isValidTxHash('BTC', digits)).toBe(true);
    expect(isValidTxHash('LTC', digits.toUpperCase())).toBe(true);
    expect(isValidTxHash('USDT-TRC20', digits)).toBe(true);
    expect(isValidTxHash('ETH', `0x${digits}`)).toBe(true);
    expect(isValidTxHash('USDT-ERC20', `0x${digits}`)).toBe(true);

    expect(isValidTxHash('BTC', `0x${digits}`)).toBe(false);
    expect(isValidTxHash('ETH', digits)).toBe(false);
    expect(isValidTxHash('BTC', digits.slice(1))).toBe(false);
    expect(isValidTxHash('USDT-TRC20', `${digits.slice(1)}g`)).toBe(false);
    expect(isValidTxHash('ETH', `0x${digits}0`)).toBe(false);
  });
});
