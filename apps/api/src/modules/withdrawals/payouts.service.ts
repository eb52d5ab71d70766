import { and, asc, eq, isNull, lt, lte, or } from 'drizzle-orm';
import { isWithdrawalAssetId, messages } from '@terrafund/contracts';
import { transactions, withdrawals, type WithdrawalRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import type { NotificationHeaders } from '../payments';
import { PayoutProviderError, type PayoutProvider, type PayoutSnapshot, type PayoutStep } from './payout-provider';
import { completeWithdrawal, failWithdrawal, lockWithdrawal, reasons } from './withdrawals.store';

/**
 * The payout of an approved withdrawal: created at the provider (exactly once), then followed until the provider
 * reports it done, by notification or by asking again. Never a database transaction open across a provider call:
 * a lease on the row (`lease_until`) keeps two dispatchers (two instances, a retry, an admin's request and the
 * job) from calling `create` for one withdrawal at once, and the provider itself is asked first (by the
 * withdrawal's id) before anything is created.
 */

export const LEASE_MS = 2 * 60_000;
/** While a payout is in flight, the provider is asked again every minute. */
export const POLL_MS = 60_000;
const MAX_BACKOFF_MS = 30 * 60_000;

/** 60 s × 2^(attempts − 1), at most 30 minutes. */
export const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Claims the withdrawal's lease: one UPDATE that only a free row (no lease, or an expired one) in `stage` passes.
 * Answers the claimed row, or undefined when another holder has it or the stage moved on.
 */
export async function claimLease(deps: Deps, id: string, stage: WithdrawalRow['stage'] = 'waiting_for_provider'): Promise<WithdrawalRow | undefined> {
  const now = deps.clock.now();
  const [claimed] = await deps.db
    .update(withdrawals)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS), updatedAt: now })
    .where(and(eq(withdrawals.transactionId, id), eq(withdrawals.stage, stage), or(isNull(withdrawals.leaseUntil), lt(withdrawals.leaseUntil, now))))
    .returning();
  return claimed;
}

async function releaseLease(deps: Deps, id: string) {
  await deps.db.update(withdrawals).set({ leaseUntil: null }).where(eq(withdrawals.transactionId, id));
}

/** Records an intermediate id `create` reported, so the next attempt resumes from it. */
async function recordStep(deps: Deps, id: string, step: PayoutStep) {
  const set =
    step.step === 'pull_payment_created'
      ? { payoutPullPaymentId: step.pullPaymentId }
      : step.step === 'batch_created'
        ? { payoutId: step.batchId }
        : { payoutId: step.batchId, payoutVerified: true };
  await deps.db
    .update(withdrawals)
    .set({ ...set, payoutProvider: deps.payoutProvider?.name ?? null, updatedAt: deps.clock.now() })
    .where(eq(withdrawals.transactionId, id));
}

/**
 * Creates the payout of an approved withdrawal (stage waiting_for_provider), or resumes what an earlier attempt
 * left at the provider. Answers the stage it leaves: `sent` (or already further), `waiting_for_provider` when the
 * provider could not be reached (retried with backoff), `failed` when the provider refused it for good.
 */
export async function dispatchPayout(deps: Deps, id: string): Promise<WithdrawalRow['stage'] | undefined> {
  const provider = deps.payoutProvider;
  if (!provider) return undefined;
  const claimed = await claimLease(deps, id);
  if (!claimed) return undefined;
  const [row] = await deps.db.select({ amountCents: transactions.amountCents }).from(transactions).where(eq(transactions.id, id));
  const amountCents = row?.amountCents ?? 0;
  const asset = claimed.asset;
  if (!isWithdrawalAssetId(asset) || !provider.supports(asset)) {
    await failFromProvider(deps, id, `${provider.name} cannot send ${asset ?? 'a withdrawal without a coin'}`);
    return 'failed';
  }
  let snapshot: PayoutSnapshot;
  try {
    snapshot = await provider.create(
      { withdrawalId: id, asset, address: claimed.address, amountCents: amountCents - claimed.feeCents },
      {
        known: {
          ...(claimed.payoutId ? { id: claimed.payoutId } : {}),
          ...(claimed.payoutPullPaymentId ? { pullPaymentId: claimed.payoutPullPaymentId } : {}),
          ...(claimed.payoutVerified ? { verified: true } : {}),
        },
        progress: (step) => recordStep(deps, id, step),
      },
    );
  } catch (error) {
    if (error instanceof PayoutProviderError && !error.retryable) {
      deps.logger.warn({ err: error, withdrawalId: id, provider: provider.name }, 'payout refused by the provider: withdrawal failed');
      await failFromProvider(deps, id, `${reasons.providerFailed}: ${errorText(error)}`);
      return 'failed';
    }
    const attempts = claimed.attempts + 1;
    const now = deps.clock.now();
    deps.logger.warn({ err: error, withdrawalId: id, provider: provider.name, attempts }, 'payout provider unavailable: retrying later');
    await deps.db
      .update(withdrawals)
      .set({ attempts, nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)), lastError: errorText(error), leaseUntil: null, updatedAt: now })
      .where(and(eq(withdrawals.transactionId, id), eq(withdrawals.stage, 'waiting_for_provider')));
    return 'waiting_for_provider';
  }
  return applySnapshot(deps, id, snapshot);
}

async function failFromProvider(deps: Deps, id: string, reason: string) {
  await deps.db.transaction(async (tx) => {
    const locked = await lockWithdrawal(tx, id);
    if (!locked?.w || (locked.w.stage !== 'waiting_for_provider' && locked.w.stage !== 'sent')) return;
    await failWithdrawal(tx, deps, locked.row, { stage: 'failed', reason });
  });
  deps.mailQueued();
}

/** When to read an in-flight payout again: the sandbox's completion time, else a minute from now. */
function nextPoll(deps: Deps, snapshot: PayoutSnapshot): Date {
  const now = deps.clock.now().getTime();
  if (snapshot.provider === 'sandbox') return new Date(now + Math.min(POLL_MS, deps.config.withdrawals.sandboxPayoutSeconds * 1000));
  return new Date(now + POLL_MS);
}

/**
 * Records what the provider says about a withdrawal's payout, under the row lock: in flight → sent; completed
 * (with a hash) → completed with the fee entry; failed or cancelled → failed with the whole amount back. A
 * withdrawal already completed, failed or cancelled does not change: duplicates and late, out-of-order reports
 * are harmless. Answers the stage it leaves.
 */
export async function applySnapshot(deps: Deps, id: string, snapshot: PayoutSnapshot): Promise<WithdrawalRow['stage'] | undefined> {
  const stage = await deps.db.transaction(async (tx) => {
    const locked = await lockWithdrawal(tx, id);
    if (!locked?.w) return undefined;
    const { row, w } = locked;
    if (w.stage !== 'waiting_for_provider' && w.stage !== 'sent') return w.stage;
    const now = deps.clock.now();
    await tx
      .update(withdrawals)
      .set({
        payoutProvider: snapshot.provider,
        payoutId: snapshot.id,
        payoutState: snapshot.state,
        payoutCryptoAmount: snapshot.cryptoAmount ?? w.payoutCryptoAmount,
        payoutCryptoCurrency: snapshot.cryptoCurrency ?? w.payoutCryptoCurrency,
        payoutPullPaymentId: snapshot.pullPaymentId ?? w.payoutPullPaymentId,
        stage: 'sent',
        sentAt: w.sentAt ?? now,
        leaseUntil: null,
        nextAttemptAt: null,
        lastError: snapshot.outcome === 'failed' ? null : (snapshot.error ?? null),
        nextPollAt: nextPoll(deps, snapshot),
        updatedAt: now,
      })
      .where(eq(withdrawals.transactionId, id));
    if (snapshot.outcome === 'completed' && snapshot.txHash) {
      await completeWithdrawal(tx, deps, row, w, { txHash: snapshot.txHash });
      return 'completed' as const;
    }
    if (snapshot.outcome === 'failed') {
      await failWithdrawal(tx, deps, row, { stage: 'failed', reason: snapshot.error ?? reasons.providerFailed });
      return 'failed' as const;
    }
    return 'sent' as const;
  });
  deps.mailQueued();
  return stage;
}

/** Asks the provider about an in-flight payout and records the answer; a provider down is asked again later. */
export async function pollPayout(deps: Deps, w: WithdrawalRow): Promise<void> {
  const provider = deps.payoutProvider;
  if (!provider || !w.payoutId || w.payoutProvider !== provider.name) return;
  let snapshot: PayoutSnapshot;
  try {
    snapshot = await provider.get(w.payoutId);
  } catch (error) {
    deps.logger.warn({ err: error, withdrawalId: w.transactionId }, 'payout provider unavailable while reading a payout: asking again later');
    await deps.db
      .update(withdrawals)
      .set({ nextPollAt: new Date(deps.clock.now().getTime() + POLL_MS), lastError: errorText(error) })
      .where(and(eq(withdrawals.transactionId, w.transactionId), eq(withdrawals.stage, 'sent')));
    return;
  }
  await applySnapshot(deps, w.transactionId, snapshot);
}

/** Confirmation links past their 30 minutes: the withdrawal fails and its amount returns (and the member is told). */
export async function expireUnconfirmed(deps: Deps, limit = 50): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ id: withdrawals.transactionId })
    .from(withdrawals)
    .where(and(eq(withdrawals.stage, 'awaiting_confirmation'), lt(withdrawals.confirmExpiresAt, now)))
    .orderBy(asc(withdrawals.confirmExpiresAt))
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    const done = await deps.db.transaction(async (tx) => {
      const locked = await lockWithdrawal(tx, id);
      if (!locked?.w || locked.w.stage !== 'awaiting_confirmation') return false;
      await failWithdrawal(tx, deps, locked.row, { stage: 'failed', reason: reasons.confirmationExpired });
      return true;
    });
    if (done) expired += 1;
  }
  if (expired > 0) deps.mailQueued();
  return expired;
}

export type PayoutRunResult = { expired: number; dispatched: number; polled: number };

/**
 * One run of the payout job: expires unconfirmed withdrawals, retries payouts whose provider was down (when their
 * backoff is over), and reads in-flight payouts that are due. Rows are handled one at a time; each is claimed
 * (lease) or locked, so several instances running it at once do each thing once.
 */
export async function runPayoutJob(deps: Deps, limit = 20): Promise<PayoutRunResult> {
  const expired = await expireUnconfirmed(deps);
  const provider = deps.payoutProvider;
  if (!provider) return { expired, dispatched: 0, polled: 0 };
  const now = deps.clock.now();
  const waiting = await deps.db
    .select({ id: withdrawals.transactionId })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.stage, 'waiting_for_provider'),
        or(isNull(withdrawals.nextAttemptAt), lte(withdrawals.nextAttemptAt, now)),
        or(isNull(withdrawals.leaseUntil), lt(withdrawals.leaseUntil, now)),
      ),
    )
    .orderBy(asc(withdrawals.updatedAt))
    .limit(limit);
  let dispatched = 0;
  for (const { id } of waiting) {
    if ((await dispatchPayout(deps, id)) !== undefined) dispatched += 1;
  }
  const inFlight = await deps.db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.stage, 'sent'), or(isNull(withdrawals.nextPollAt), lte(withdrawals.nextPollAt, now))))
    .orderBy(asc(withdrawals.nextPollAt))
    .limit(limit);
  for (const w of inFlight) await pollPayout(deps, w);
  return { expired, dispatched, polled: inFlight.length };
}

/**
 * A notification on a provider's webhook address that the payout provider recognises as about a payout: the
 * payout is read again at the provider (the body is never trusted) and recorded. Answers false when it is not a
 * payout notification (the caller hands it to the deposit code), true once handled; a provider that does not
 * answer is a 503 so the provider delivers it again.
 */
export async function handlePayoutNotification(
  deps: Deps,
  providerName: string,
  rawBody: Buffer,
  headers: NotificationHeaders,
): Promise<'payout' | 'invalid' | 'other'> {
  const provider: PayoutProvider | undefined = deps.payoutProvider;
  if (!provider || provider.name !== providerName) return 'other';
  const notification = provider.verifyNotification(rawBody, headers);
  if (notification.kind !== 'payout') return notification.kind;
  const log = { provider: provider.name, type: notification.type, deliveryKey: notification.deliveryKey, payout: notification.payoutRef };
  if (!notification.known) {
    deps.logger.info(log, 'payout notification of a type we do not act on: ignored');
    return 'payout';
  }
  let snapshot: PayoutSnapshot;
  try {
    snapshot = await provider.get(notification.payoutRef);
  } catch (error) {
    deps.logger.warn({ ...log, err: error }, 'payout provider unreachable while confirming a notification: asking for a redelivery');
    throw new AppError('SERVICE_UNAVAILABLE', messages.wallet.paymentProviderUnavailable);
  }
  const [byPayout] = await deps.db
    .select({ id: withdrawals.transactionId })
    .from(withdrawals)
    .where(and(eq(withdrawals.payoutProvider, provider.name), eq(withdrawals.payoutId, snapshot.id)));
  // A notification may arrive before the creating call's answer was recorded: the payout names its withdrawal.
  const id = byPayout?.id ?? snapshot.withdrawalId;
  if (!id) {
    deps.logger.warn(log, 'payout notification for a payout that is not ours: ignored');
    return 'payout';
  }
  const [w] = await deps.db.select().from(withdrawals).where(eq(withdrawals.transactionId, id));
  if (!w || (w.payoutId !== null && w.payoutId !== snapshot.id && w.payoutProvider === provider.name)) {
    deps.logger.warn(log, 'payout notification for a payout that is not ours: ignored');
    return 'payout';
  }
  await applySnapshot(deps, id, snapshot);
  return 'payout';
}

export { releaseLease };
