import { createWithdrawalBody, messages } from '@terrafund/contracts';

/**
 * What the amount box holds, read as the number the API takes (the field's `setValueAs`). An empty box is
 * no amount at all; anything but a plain decimal ("1e3", "12abc", "1,000") is not a number. Both then fail
 * with the API's own message ("Please enter a valid amount") rather than being guessed at.
 */
export function parseAmount(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return undefined;
  return /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The withdraw form: the API's own rules and messages (contracts `createWithdrawalBody`: a valid amount of
 * at least 25, a wallet address), plus "Insufficient balance", which the browser can say before asking
 * because it knows the balance. The server checks the balance again, atomically, in the ledger.
 */
export function withdrawalFormSchema(balance: number) {
  const { amount } = createWithdrawalBody.shape;
  return createWithdrawalBody.omit({ type: true }).extend({
    amount: amount.refine((value) => value <= balance, messages.wallet.insufficientBalance),
  });
}
