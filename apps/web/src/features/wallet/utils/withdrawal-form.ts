import { z } from 'zod';
import {
  isWithdrawalAssetId,
  messages,
  refineWithdrawalAddress,
  withdrawalRequestFields,
  type PublicConfig,
  type WithdrawalAssetId,
} from '@terrafund/contracts';
import { i18n } from '@/lib/i18n';

/** A coin the server pays out in, as GET /api/config lists it. */
export type OfferedAsset = PublicConfig['withdrawalAssets'][number] & { id: WithdrawalAssetId };

/** The configured coins the browser knows how to check an address for (every catalogue id; others are left out). */
export const offeredAssets = (config: PublicConfig | undefined): OfferedAsset[] =>
  (config?.withdrawalAssets ?? []).filter((asset): asset is OfferedAsset => isWithdrawalAssetId(asset.id));

/** How a coin reads in the chooser: "Bitcoin", "Tether on Tron" (in the language of the screen: "Tether en Tron"). */
export const assetLabel = (asset: Pick<OfferedAsset, 'name' | 'network'>) =>
  asset.name === asset.network ? asset.name : i18n.t('wallet:coin.onNetwork', { name: asset.name, network: asset.network });

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

/** What the member receives for `amount` once the flat fee is kept: never below zero, in whole cents. */
export function receiveAmount(amount: number | undefined, fee: number): number | undefined {
  if (amount === undefined || !Number.isFinite(amount) || amount <= 0) return undefined;
  return Math.max(0, Math.round((amount - fee) * 100) / 100);
}

/**
 * The withdraw form: the API's own rules and messages (contracts `withdrawalRequestFields`: a valid amount of at
 * least 25, a coin, an address checked for that coin with `refineWithdrawalAddress`), plus what the browser can
 * say before asking because it knows it: "Insufficient balance", and which step-up the account needs (the
 * password, or the 6-digit code with two-factor authentication on). The server checks everything again.
 */
export function withdrawalFormSchema({ balance, twoFactor }: { balance: number; twoFactor: boolean }) {
  const { amount } = withdrawalRequestFields.shape;
  // Both fields exist either way; the account decides which one must be filled (and which one is sent).
  const stepUp = {
    password: z
      .string()
      .optional()
      .refine((value) => twoFactor || (value ?? '') !== '', messages.validation.passwordRequired),
    code: z
      .string()
      .optional()
      .refine((value) => !twoFactor || /^\d{6}$/.test((value ?? '').trim()), messages.twoFactor.codeRequired),
  };
  return withdrawalRequestFields
    .omit({ type: true, password: true, code: true })
    .extend({ amount: amount.refine((value) => value <= balance, messages.wallet.insufficientBalance), ...stepUp })
    .superRefine(
      (value, ctx) => {
        if (value.walletAddress !== '') refineWithdrawalAddress(value, ctx);
      },
      {
        // The address is checked for its coin as soon as both are there, whatever else is still wrong (the amount).
        when: ({ value }) => {
          const form = value as { asset?: unknown; walletAddress?: unknown } | undefined;
          return isWithdrawalAssetId(form?.asset) && typeof form.walletAddress === 'string' && form.walletAddress.trim() !== '';
        },
      },
    );
}

export type WithdrawalFormValues = z.output<ReturnType<typeof withdrawalFormSchema>>;
