import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { parseAmount, withdrawalFormSchema } from './withdrawal-form';

const w = messages.wallet;

/** The first message the form would show for each field, as react-hook-form's resolver picks it. */
function firstErrors(values: { walletAddress: unknown; amount: unknown }, balance = 100) {
  const result = withdrawalFormSchema(balance).safeParse({ ...values, amount: parseAmount(values.amount) });
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

  it.each([
    ['empty', { walletAddress: '', amount: '' }, 100, { walletAddress: w.walletAddressRequired, amount: w.amountInvalid }],
    ['blank address', { walletAddress: '   ', amount: '30' }, 100, { walletAddress: w.walletAddressRequired }],
    ['address with spaces inside', { walletAddress: 'bc1 q', amount: '30' }, 100, { walletAddress: w.walletAddressInvalid }],
    ['not a number', { walletAddress: 'bc1q', amount: 'abc' }, 100, { amount: w.amountInvalid }],
    ['zero', { walletAddress: 'bc1q', amount: '0' }, 100, { amount: w.amountInvalid }],
    ['a third of a cent', { walletAddress: 'bc1q', amount: '30.333' }, 100, { amount: w.amountInvalid }],
    ['below the minimum', { walletAddress: 'bc1q', amount: '24.99' }, 100, { amount: w.minWithdrawal }],
    ['below the minimum and above the balance', { walletAddress: 'bc1q', amount: '20' }, 10, { amount: w.minWithdrawal }],
    ['above the balance', { walletAddress: 'bc1q', amount: '100.01' }, 100, { amount: w.insufficientBalance }],
  ])('%s', (_case, values, balance, expected) => {
    expect(firstErrors(values, balance)).toEqual(expected);
  });

  it('accepts the minimum and the whole balance, and trims the address', () => {
    expect(withdrawalFormSchema(100).parse({ walletAddress: ' bc1qabc ', amount: 25 })).toEqual({ walletAddress: 'bc1qabc', amount: 25 });
    expect(withdrawalFormSchema(100).parse({ walletAddress: 'bc1qabc', amount: 100 })).toEqual({ walletAddress: 'bc1qabc', amount: 100 });
  });
});
