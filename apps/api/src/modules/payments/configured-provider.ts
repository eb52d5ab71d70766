import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Secrets } from '../../lib/crypto';
import { createBtcpayProvider } from './btcpay.provider';
import { createNowpaymentsProvider } from './nowpayments.provider';
import type { PaymentProvider } from './provider';
import { createSandboxProvider, type SandboxProvider } from './sandbox.provider';
import { dbSandboxStore } from './sandbox.store';

/** The provider PAYMENT_PROVIDER names, built from its settings (config.ts refuses missing ones at boot). */
export function createConfiguredProvider(config: Config, deps: { db: Database; clock: Clock; secrets: Secrets }): PaymentProvider {
  const settings = config.payments;
  switch (settings.provider) {
    case 'btcpay':
      return createBtcpayProvider(settings.btcpay);
    case 'nowpayments':
      return createNowpaymentsProvider(settings.nowpayments);
    case 'sandbox':
      return createSandboxProvider({
        publicUrl: config.publicUrl,
        secret: deps.secrets.sandboxWebhookKey,
        store: dbSandboxStore(deps.db),
        clock: deps.clock,
        expiresInMinutes: settings.sandboxExpiryMinutes,
      });
  }
}

export const isSandboxProvider = (provider: PaymentProvider): provider is SandboxProvider =>
  provider.name === 'sandbox' && 'pay' in provider && 'expire' in provider;
