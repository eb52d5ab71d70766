import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { assetLabel, offeredAssets, parseAmount, receiveAmount, withdrawalFormSchema } from './withdrawal-form';
import { config } from '../testing/wallet-fixtures';

const w = messages.wallet;
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

type Values = { asset?: unknown; walletAddress: unknown; amount: unknown; password?: unknown; code?: unknown };

/** The first message the form would show for each field, as react-hook-form's resolver picks it. */
function firstErrors(values: Values, { balance = 100, twoFactor = false } = {}) {
  const input = { asset: 'BTC', password: 'secret-password', ...values, amount: parseAmount(values.amount) };
  const result = withdrawalFormSchema({ balance, twoFactor }).safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

describe('withdraw form rules', () => {
  it('reads the amount box as a plain decimal, nothing else', () => {
    expect(parseAmount('')).toBeUndefined();
    expect(parseAmount('  ')).toBeUndefined();
    expect(parseAmount(' 40 ')).toBe(40);
    expect(parseAmount('25.5')).toBe(25.5);
    expect(parseAmount('.5')).toBe(0.5);
    expect(parseAmount('30.')).toBe(30);
    for (const text of ['1e3', '12abc', '1,000', '-30', '0x20', 'Infinity', '30 40']) expect(parseAmount(text)).toBeNaN();
  });

  it('says what arrives once the fee is kept, in whole cents, and nothing for no amount', () => {
    expect(receiveAmount(40, 1)).toBe(39);
    expect(receiveAmount(25.1, 1)).toBe(24.1);
    expect(receiveAmount(0.5, 1)).toBe(0);
    expect(receiveAmount(undefined, 1)).toBeUndefined();
    expect(receiveAmount(Number.NaN, 1)).toBeUndefined();
  });

  it('offers the configured coins the catalogue knows, named with their network', () => {
    expect(offeredAssets(config).map(assetLabel)).toEqual(['Bitcoin', 'Ether on Ethereum', 'Tether on Tron']);
    expect(offeredAssets({ ...config, withdrawalAssets: [{ id: 'DOGE', name: 'Dogecoin', network: 'Dogecoin', feeUsd: 1 }] })).toEqual([]);
    expect(offeredAssets(undefined)).toEqual([]);
  });

  it.each([
    ['empty', { walletAddress: '', amount: '' }, { walletAddress: w.walletAddressRequired, amount: w.amountInvalid }],
    ['blank address', { walletAddress: '   ', amount: '30' }, { walletAddress: w.walletAddressRequired }],
    ['no coin', { asset: '', walletAddress: BTC, amount: '30' }, { asset: messages.withdrawals.assetInvalid }],
    ['not a Bitcoin address', { walletAddress: 'bc1qxyz', amount: '30' }, { walletAddress: 'Please enter a valid Bitcoin address' }],
    ['a Tron address for Bitcoin', { walletAddress: TRON, amount: '30' }, { walletAddress: 'Please enter a valid Bitcoin address' }],
    ['a Bitcoin address for Tether on Tron', { asset: 'USDT-TRC20', walletAddress: BTC, amount: '30' }, { walletAddress: 'Please enter a valid Tether address' }],
    ['a checksum error on Ethereum', { asset: 'ETH', walletAddress: ETH.replace('aAeb', 'aaEb'), amount: '30' }, { walletAddress: 'Please enter a valid Ether address' }],
    ['a wrong address and a wrong amount at once', { walletAddress: 'nope', amount: '3' }, { walletAddress: 'Please enter a valid Bitcoin address', amount: w.minWithdrawal }],
    ['not a number', { walletAddress: BTC, amount: 'abc' }, { amount: w.amountInvalid }],
    ['zero', { walletAddress: BTC, amount: '0' }, { amount: w.amountInvalid }],
    ['a third of a cent', { walletAddress: BTC, amount: '30.333' }, { amount: w.amountInvalid }],
    ['below the minimum', { walletAddress: BTC, amount: '24.99' }, { amount: w.minWithdrawal }],
    ['above the balance', { walletAddress: BTC, amount: '100.01' }, { amount: w.insufficientBalance }],
    ['no password', { walletAddress: BTC, amount: '30', password: '' }, { password: messages.validation.passwordRequired }],
  ])('%s', (_case, values, expected) => {
    expect(firstErrors(values)).toEqual(expected);
  });

  it('asks a member with two-factor authentication for a 6-digit code instead of the password', () => {
    expect(firstErrors({ walletAddress: BTC, amount: '30', password: '', code: '' }, { twoFactor: true })).toEqual({
      code: messages.twoFactor.codeRequired,
    });
    expect(firstErrors({ walletAddress: BTC, amount: '30', password: '', code: '12345' }, { twoFactor: true })).toEqual({
      code: messages.twoFactor.codeRequired,
    });
    expect(firstErrors({ walletAddress: BTC, amount: '30', password: '', code: ' 123456 ' }, { twoFactor: true })).toEqual({});
  });

  it('accepts the minimum and the whole balance to a valid address of the coin, trimmed', () => {
    const schema = withdrawalFormSchema({ balance: 100, twoFactor: false });
    expect(schema.parse({ asset: 'BTC', walletAddress: ` ${BTC} `, amount: 25, password: 'pw' })).toMatchObject({ walletAddress: BTC, amount: 25 });
    expect(schema.parse({ asset: 'USDT-TRC20', walletAddress: TRON, amount: 100, password: 'pw' })).toMatchObject({ asset: 'USDT-TRC20' });
    expect(schema.parse({ asset: 'ETH', walletAddress: ETH, amount: 30, password: 'pw' })).toMatchObject({ walletAddress: ETH });
  });
});
