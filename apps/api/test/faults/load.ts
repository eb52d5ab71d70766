import { bearer, json, signUp, type FaultBackends } from './backends';

/** One answer seen by a load client: when it was sent, how long it took, its status (0: no answer in time, -1: no answer at all). */
export type Outcome = { label: string; at: number; ms: number; status: number; retryAfter: string | null; body?: string };

/** A request a load client sends: a label for the report, the path and what to send. */
export type LoadRequest = { label: string; path: string; init?: RequestInit };

/** Longer than this is a hang: the bound for any answer during an outage. */
export const HANG_MS = 10_000;

/**
 * Clients that keep sending until stopped, each waiting for its answer before the next, every answer recorded. A
 * request without an answer within HANG_MS counts as a hang (status 0); a refused or cut connection as -1.
 */
export function startLoad(baseUrl: string, clients: (() => LoadRequest)[], options: { pauseMs?: number } = {}) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  const loops = clients.map(async (next) => {
    while (!stopped) {
      const request = next();
      const at = Date.now();
      try {
        const response = await fetch(`${baseUrl}${request.path}`, { ...request.init, signal: AbortSignal.timeout(HANG_MS) });
        const body = await response.text();
        outcomes.push({
          label: request.label,
          at,
          ms: Date.now() - at,
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          ...(response.status >= 500 || response.status === 0 ? { body: body.slice(0, 300) } : {}),
        });
      } catch (error) {
        const timedOut = (error as { name?: string }).name === 'TimeoutError';
        outcomes.push({ label: request.label, at, ms: Date.now() - at, status: timedOut ? 0 : -1, retryAfter: null, body: String(error).slice(0, 300) });
      }
      if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
    }
  });
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** Counts of outcomes by status, for a failure message. */
export const byStatus = (outcomes: Outcome[]) =>
  outcomes.reduce<Record<string, number>>((counts, o) => ({ ...counts, [o.status]: (counts[o.status] ?? 0) + 1 }), {});

/**
 * A member who can withdraw and invest: signed up through the API, KYC approved, a platinum pack bought through the
 * BTCPay fake (invoice, "Settled", signed webhook), then dividends: the membership is dated `daysAgo` days back and
 * the admin's payout run pays the business days since. Returns the member and their wallet balance in cents.
 */
export async function fundedMember(backends: FaultBackends, url: string, adminToken: string, daysAgo = 12) {
  const member = await signUp(backends, url, { kycApproved: true });
  const deposit = await fetch(`${url}/api/transactions`, json({ type: 'deposit', plan: 'platinum' }, member.token));
  if (deposit.status !== 201) throw new Error(`deposit: ${deposit.status} ${await deposit.text()}`);
  const { payment_url: paymentUrl } = (await deposit.json()) as { payment_url: string };
  const invoiceId = paymentUrl.split('/').pop()!;
  backends.btcpay.set(invoiceId, { status: 'Settled' });
  const delivery = backends.btcpay.delivery(invoiceId, 'InvoiceSettled');
  const settled = await fetch(`${url}/api/payments/webhooks/btcpay`, { method: 'POST', headers: delivery.headers, body: new Uint8Array(delivery.body) });
  if (settled.status !== 200) throw new Error(`settlement: ${settled.status} ${await settled.text()}`);
  await backends.sql(
    `update memberships set started_at = started_at - make_interval(days => $2), ends_at = ends_at - make_interval(days => $2) where user_id = $1`,
    [member.id, daysAgo],
  );
  const payouts = await fetch(`${url}/api/admin/payouts/run`, { method: 'POST', ...bearer(adminToken) });
  if (payouts.status !== 200) throw new Error(`payouts: ${payouts.status} ${await payouts.text()}`);
  const dashboard = (await (await fetch(`${url}/api/users/dashboard`, bearer(member.token))).json()) as { walletBalance: number };
  return { ...member, balanceCents: Math.round(dashboard.walletBalance * 100) };
}
