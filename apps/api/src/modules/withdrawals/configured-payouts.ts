import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createBtcpayPayouts } from './btcpay-payouts';
import { createNowpaymentsPayouts } from './nowpayments-payouts';
import type { PayoutProvider } from './payout-provider';
import { createSandboxPayouts } from './sandbox-payouts';

/** The payout provider PAYOUT_PROVIDER names; undefined for `manual` (an admin sends the coins and types the hash). */
export function createConfiguredPayoutProvider(config: Config, deps: { db: Database; clock: Clock }): PayoutProvider | undefined {
  const settings = config.withdrawals;
  switch (settings.payoutProvider) {
    case 'manual':
      return undefined;
    case 'sandbox':
      return createSandboxPayouts({ db: deps.db, clock: deps.clock, seconds: settings.sandboxPayoutSeconds });
    case 'btcpay':
      return createBtcpayPayouts({ ...settings.btcpay, timeoutMs: 15_000 });
    case 'nowpayments':
      return createNowpaymentsPayouts({
        apiUrl: settings.nowpayments.apiUrl,
        apiKey: settings.nowpayments.apiKey,
        email: settings.nowpayments.email,
        password: settings.nowpayments.password,
        twoFactorSecret: settings.nowpayments.twoFactorSecret,
        ipnSecret: settings.nowpayments.ipnSecret,
        ipnCallbackUrl: `${config.publicUrl}/api/payments/webhooks/nowpayments`,
        clock: deps.clock,
        timeoutMs: 15_000,
      });
  }
}
