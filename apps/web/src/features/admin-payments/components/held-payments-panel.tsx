import { useId, useState, type ReactNode } from 'react';
import { formatPaidAmount, messages, type HeldPayment, type ReviewDecision } from '@terrafund/contracts';
import { TransactionStatusBadge } from '@/components/money/transaction-cells';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { QueueHeading, QueueStates } from '@/components/ui/queue-states';
import { TextLink } from '@/components/ui/text-link';
import { paths } from '@/config/paths';
import { formatDateTime, formatUsd, shortId } from '@/lib/format';
import { useHeldPayments } from '../api/get-held-payments';
import { useT } from '@/lib/i18n';
import { memberName, packLabel, PROVIDER_LABELS, reasonExplanation, reasonLabel } from './held-payment-labels';
import { ReviewDecisionDialog } from './review-decision-dialog';

/**
 * The payments the settlement held instead of activating a pack (partial, late, over- or mismatched money),
 * each with what an admin needs to decide it and the two decisions. Shown above the transactions list;
 * when nothing is held it says so in one line.
 */
export function HeldPaymentsPanel() {
  const query = useHeldPayments();
  const { t, say } = useT('admin');
  const [deciding, setDeciding] = useState<{ payment: HeldPayment; decision: ReviewDecision } | null>(null);
  const headingId = useId();
  const payments = query.data ?? [];

  return (
    <Card className="overflow-hidden" role="region" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-4 sm:px-5 dark:border-slate-800">
        <div className="min-w-0">
          <QueueHeading
            id={headingId}
            title={t('payments.title')}
            count={query.data ? payments.length : undefined}
            description={t('payments.description')}
          />
        </div>
      </div>

      <QueueStates
        query={query}
        isEmpty={payments.length === 0}
        loadingLabel={t('payments.loading')}
        failedText={say(messages.payments.loadFailed)}
        retryLabel={t('payments.tryAgain')}
        emptyText={t('payments.empty')}
      >
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-labelledby={headingId}>
          {payments.map((payment) => (
            <HeldPaymentItem key={payment._id} payment={payment} onDecide={(decision) => setDeciding({ payment, decision })} />
          ))}
        </ul>
      </QueueStates>

      {deciding && (
        <ReviewDecisionDialog
          key={`${deciding.payment._id}:${deciding.decision}`}
          payment={deciding.payment}
          decision={deciding.decision}
          onClose={() => setDeciding(null)}
        />
      )}
    </Card>
  );
}

/** A label over its value, in the look of the transaction details. */
function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 min-w-0 text-sm text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

function HeldPaymentItem({ payment, onDecide }: { payment: HeldPayment; onDecide: (decision: ReviewDecision) => void }) {
  const name = memberName(payment);
  const titleId = useId();
  const { t } = useT('admin');

  return (
    <li aria-labelledby={titleId} className="px-4 py-4 sm:px-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p id={titleId} className="flex flex-wrap items-baseline gap-x-2 font-medium text-slate-900 dark:text-white">
            <span>{name}</span>
            <span className="text-slate-400 dark:text-slate-500" aria-hidden="true">
              ·
            </span>
            <span>
              {t('payments.packAmount', { pack: packLabel(payment.pack), amount: formatUsd(payment.amount, 0) })}
            </span>
          </p>
          <p className="mt-0.5 flex flex-wrap items-baseline gap-x-3 text-sm">
            <a href={`mailto:${payment.user.email}`} className="break-all text-slate-600 hover:underline dark:text-slate-300">
              {payment.user.email}
            </a>
            <TextLink to={paths.adminUser.getHref(payment.user._id)}>{t('payments.openUser')}</TextLink>
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <Button size="sm" onClick={() => onDecide('activate')} aria-describedby={titleId}>
            {t('payments.activatePack')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => onDecide('reject')} aria-describedby={titleId}>
            {t('payments.reject')}
          </Button>
        </div>
      </div>

      <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        <Badge tone="warning">{reasonLabel(payment.reviewReason)}</Badge>
        {payment.reviewReason && <span>{reasonExplanation(payment.reviewReason)}</span>}
      </p>

      <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t('payments.fields.expected')}>
          <span className="tabular-nums">{formatUsd(payment.amount)}</span>
        </Field>
        <Field label={t('payments.fields.received')}>
          {payment.paid ? (
            <span className="font-medium tabular-nums">{formatPaidAmount(payment.paid)}</span>
          ) : (
            <span className="text-slate-500 dark:text-slate-400">{t('payments.fields.notReported')}</span>
          )}
        </Field>
        <Field label={t('payments.fields.provider')}>{PROVIDER_LABELS[payment.provider]}</Field>
        <Field label={t('payments.fields.providerStatus')}>
          <span className="font-mono text-xs">{payment.rawStatus}</span>
        </Field>
        <Field label={t('payments.fields.heldSince')}>
          <time dateTime={payment.closedAt ?? payment.createdAt}>{formatDateTime(payment.closedAt ?? payment.createdAt)}</time>
        </Field>
        <Field label={t('payments.fields.deposit')}>
          <span className="flex flex-wrap items-center gap-2">
            <TransactionStatusBadge status={payment.transactionStatus} />
            <span className="font-mono text-xs" title={payment.transactionId}>
              {shortId(payment.transactionId)}
            </span>
          </span>
        </Field>
        <Field label={t('payments.fields.invoiceId')} wide>
          <span className="font-mono text-xs break-all select-all">{payment.providerInvoiceId}</span>
        </Field>
        {payment.paymentId && (
          <Field label={t('payments.fields.paymentId')}>
            <span className="font-mono text-xs break-all select-all">{payment.paymentId}</span>
          </Field>
        )}
        <Field label={t('payments.fields.invoiceCreated')}>
          <time dateTime={payment.createdAt}>{formatDateTime(payment.createdAt)}</time>
        </Field>
      </dl>
    </li>
  );
}
