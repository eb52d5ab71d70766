import { screen } from '@testing-library/react';
import { vi } from 'vitest';
import { PACK_FEATURES, PACKS, type PackPayment, type Plan, type PublicConfig, type Transaction, type User } from '@terrafund/contracts';
import { buildPublicConfig } from '@/testing/builders';
import { renderApp, signIn } from '@/testing/test-utils';

/** The four packs as GET /api/plans answers them. */
export const plans: Plan[] = PACKS.map((pack) => ({ ...pack, features: [...PACK_FEATURES] }));

export const config: PublicConfig = buildPublicConfig();

/** The handlers every wallet test needs: plans, the public config, and an empty history. */
export const walletHandlers = {
  'GET /plans': () => ({ body: plans }),
  'GET /config': () => ({ body: config }),
  'GET /transactions': () => ({ body: [] as Transaction[] }),
  'GET /payments': () => ({ body: [] as PackPayment[] }),
};

/** window.location.assign, which jsdom cannot perform, replaced by a spy. */
export function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

/** Signs `member` in with the wallet's answers (`handlers` over them), opens /wallet and waits for its heading. */
export async function openWalletAs(member: User, handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(member, { ...walletHandlers, ...handlers });
  const app = renderApp('/wallet');
  await screen.findByRole('heading', { level: 1 }, { timeout: 8000 });
  return { ...app, fetchMock };
}
