import type { CreateInvoiceInput } from '../src/modules/payments/provider';

/** What the payments service asks a provider for: a startium pack's invoice, with our pages for `provider`. */
export const invoiceInput = (provider: 'sandbox' | 'btcpay' | 'nowpayments', overrides: Partial<CreateInvoiceInput> = {}): CreateInvoiceInput => ({
  orderId: 'tx-0001',
  amountCents: 70_000,
  currency: 'USD',
  description: 'Terrafund startium pack',
  returnUrl: `https://app.terrafund.test/api/payments/return/${provider}?order=tx-0001`,
  successUrl: 'https://app.terrafund.test/wallet/payment/success',
  cancelUrl: 'https://app.terrafund.test/wallet/payment/timeout',
  notifyUrl: `https://app.terrafund.test/api/payments/webhooks/${provider}`,
  expiresInMinutes: 30,
  ...overrides,
});
