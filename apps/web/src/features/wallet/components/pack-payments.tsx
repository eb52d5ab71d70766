import { formatPaidAmount, type PackPayment, type PackPaymentStatus } from '@terrafund/contracts';
import { capitalize } from '@/components/money/transaction-cells';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ListBody } from '@/components/ui/list-body';
import { EmptyState } from '@/components/ui/empty-state';
import { CoinsIcon } from 'lucide-react';
import { Table, TBody, Td, Th, THead } from '@/components/ui/table';
import { Tabs } from '@/components/ui/tabs';
import { formatDate, formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { checkoutUrl, useCreateDeposit } from '../api/create-deposit';
import { usePackPayments } from '../api/get-pack-payments';

const statusTone: Record<PackPaymentStatus, BadgeTone> = {
  pending: 'warning',
  expired: 'neutral',
  held: 'info',
  settled: 'success',
  failed: 'danger',
};

/** What the member can do with a payment: finish paying a pending one, or buy the same pack again. */
function PaymentAction({ payment, restart }: { payment: PackPayment; restart: ReturnType<typeof useCreateDeposit> }) {
  const pack = capitalize(payment.pack);
  const { t } = useT('wallet');
  if (payment.status === 'pending' && payment.payment_url) {
    const url = checkoutUrl(payment.payment_url);
    return url ? (
      <a href={url} className={buttonClasses({ size: 'sm', variant: 'outline' })} aria-label={t('payments.continueLabel', { pack })}>
        {t('payments.continue')}
      </a>
    ) : null;
  }
  if (payment.status === 'expired') {
    const busy = restart.variables === payment.pack && (restart.isPending || restart.isSuccess);
    return (
      <Button size="sm" variant="outline" isLoading={busy} disabled={restart.isPending} aria-label={t('payments.restartLabel', { pack })} onClick={() => restart.mutate(payment.pack)}>
        {t('payments.restart')}
      </Button>
    );
  }
  if (payment.status === 'held') return <span className="text-xs text-slate-500 dark:text-slate-400">{t('payments.checking')}</span>;
  return null;
}

/**
 * The wallet's Deposit tab, its default tab, shown with or without an active pack: every pack payment of the
 * member, newest first, with pack, amount, date and status. A pending payment leads back to its checkout; an
 * expired one offers to buy the same pack again (a new invoice, a new checkout).
 */
export function PackPayments() {
  const payments = usePackPayments();
  const restart = useCreateDeposit();
  const { t } = useT('wallet');

  const rows = payments.data ?? [];
  const body = (
    <ListBody
      query={payments}
      isEmpty={rows.length === 0}
      failed={payments.isError}
      loadingLabel={t('payments.loading')}
      loadingClassName="py-10"
      compactFailure
      failedTitle={t('payments.failed')}
      empty={<EmptyState icon={<CoinsIcon className="h-5 w-5" />} title={t('payments.empty')} description={t('payments.emptyText')} />}
    >
      <Table caption={t('payments.caption')} minWidth="min-w-0">
        <THead>
          <Th className="px-3 sm:px-5">{t('payments.pack')}</Th>
          <Th className="px-3 sm:px-5">{t('payments.amount')}</Th>
          <Th className="hidden sm:table-cell">{t('payments.date')}</Th>
          <Th className="px-3 sm:px-5">{t('payments.status')}</Th>
          {/* relative: the hidden label is placed inside the table's scroll box, not beyond the page's right edge. */}
          <Th className="relative px-3 sm:px-5">
            <span className="sr-only">{t('payments.action')}</span>
          </Th>
        </THead>
        <TBody>
          {rows.map((payment) => (
            <tr key={payment._id}>
              <Td className="px-3 font-medium text-slate-900 sm:px-5 dark:text-white">
                {capitalize(payment.pack)}
                <span className="block text-xs font-normal text-slate-500 sm:hidden dark:text-slate-400" aria-hidden="true">
                  {formatDate(payment.date)}
                </span>
              </Td>
              <Td className="px-3 whitespace-nowrap tabular-nums sm:px-5">
                {formatUsd(payment.amount)}
                {payment.status === 'held' && payment.paid && (
                  <span className="block text-xs text-slate-500 dark:text-slate-400">{t('payments.received', { amount: formatPaidAmount(payment.paid) })}</span>
                )}
              </Td>
              <Td className="hidden whitespace-nowrap text-slate-600 sm:table-cell dark:text-slate-300">{formatDate(payment.date)}</Td>
              <Td className="px-3 sm:px-5">
                <Badge tone={statusTone[payment.status]}>{t(`payments.statuses.${payment.status}`)}</Badge>
              </Td>
              <Td className="px-3 text-right sm:px-5">
                <PaymentAction payment={payment} restart={restart} />
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
    </ListBody>
  );

  return (
    <Card className="min-w-0">
      <Tabs
        label={t('payments.tabs')}
        defaultTab="deposit"
        items={[
          {
            id: 'deposit',
            label: t('payments.deposit'),
            content: (
              <section aria-label={t('payments.caption')}>
                <p className="px-5 pt-4 text-sm text-slate-500 dark:text-slate-400">
                  {t('payments.intro')}
                </p>
                {body}
              </section>
            ),
          },
        ]}
      />
    </Card>
  );
}
