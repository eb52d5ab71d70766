import type { ReactNode } from 'react';
import { type PackPayment, type PackPaymentStatus } from '@terrafund/contracts';
import { capitalize } from '@/components/money/transaction-cells';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed, LoadingBlock } from '@/components/ui/load-state';
import { CoinsIcon } from 'lucide-react';
import { Table, TBody, Td, Th, THead } from '@/components/ui/table';
import { Tabs } from '@/components/ui/tabs';
import { formatDate, formatUsd } from '@/lib/format';
import { checkoutUrl, useCreateDeposit } from '../api/create-deposit';
import { usePackPayments } from '../api/get-pack-payments';

const statusLabel: Record<PackPaymentStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  expired: { label: 'Expired', tone: 'neutral' },
  held: { label: 'Held for review', tone: 'info' },
  settled: { label: 'Settled', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

/** What the member can do with a payment: finish paying a pending one, or buy the same pack again. */
function PaymentAction({ payment, restart }: { payment: PackPayment; restart: ReturnType<typeof useCreateDeposit> }) {
  const pack = capitalize(payment.pack);
  if (payment.status === 'pending' && payment.payment_url) {
    const url = checkoutUrl(payment.payment_url);
    return url ? (
      <a href={url} className={buttonClasses({ size: 'sm', variant: 'outline' })} aria-label={`Continue payment for ${pack}`}>
        Continue payment
      </a>
    ) : null;
  }
  if (payment.status === 'expired') {
    const busy = restart.variables === payment.pack && (restart.isPending || restart.isSuccess);
    return (
      <Button size="sm" variant="outline" isLoading={busy} disabled={restart.isPending} aria-label={`Start again: buy ${pack}`} onClick={() => restart.mutate(payment.pack)}>
        Start again
      </Button>
    );
  }
  if (payment.status === 'held') return <span className="text-xs text-slate-500 dark:text-slate-400">An admin is checking this payment</span>;
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

  let body: ReactNode;
  if (payments.isPending) {
    body = (
      <LoadingBlock label="Loading pack payments" className="py-10" />
    );
  } else if (payments.isError) {
    body = (
      <div role="alert">
        <LoadFailed
          title="Failed to load your pack payments."
          query={payments}
          size="sm"
        />
      </div>
    );
  } else if (payments.data.length === 0) {
    body = <EmptyState icon={<CoinsIcon className="h-5 w-5" />} title="No pack payments yet" description="A pack you choose and pay for shows here." />;
  } else {
    body = (
      <Table caption="Pack payments" minWidth="min-w-0">
        <THead>
          <Th className="px-3 sm:px-5">Pack</Th>
          <Th className="px-3 sm:px-5">Amount</Th>
          <Th className="hidden sm:table-cell">Date</Th>
          <Th className="px-3 sm:px-5">Status</Th>
          <Th className="px-3 sm:px-5">
            <span className="sr-only">Action</span>
          </Th>
        </THead>
        <TBody>
          {payments.data.map((payment) => (
            <tr key={payment._id}>
              <Td className="px-3 font-medium text-slate-900 sm:px-5 dark:text-white">
                {capitalize(payment.pack)}
                <span className="block text-xs font-normal text-slate-500 sm:hidden dark:text-slate-400" aria-hidden="true">
                  {formatDate(payment.date)}
                </span>
              </Td>
              <Td className="px-3 whitespace-nowrap tabular-nums sm:px-5">{formatUsd(payment.amount)}</Td>
              <Td className="hidden whitespace-nowrap text-slate-600 sm:table-cell dark:text-slate-300">{formatDate(payment.date)}</Td>
              <Td className="px-3 sm:px-5">
                <Badge tone={statusLabel[payment.status].tone}>{statusLabel[payment.status].label}</Badge>
              </Td>
              <Td className="px-3 text-right sm:px-5">
                <PaymentAction payment={payment} restart={restart} />
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
    );
  }

  return (
    <Card className="min-w-0">
      <Tabs
        label="Wallet"
        defaultTab="deposit"
        items={[
          {
            id: 'deposit',
            label: 'Deposit',
            content: (
              <section aria-label="Pack payments">
                <p className="px-5 pt-4 text-sm text-slate-500 dark:text-slate-400">
                  Every pack you have paid for or started paying for, newest first.
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
