import { PageHeader } from '@/components/ui/page-header';
import { HeldPaymentsPanel } from '@/features/admin-payments/components/held-payments-panel';
import { TransactionsList } from '@/features/admin-transactions/components/transactions-list';

export default function AdminTransactionsRoute() {
  return (
    <div className="space-y-6">
      <title>Transactions · Terrafund</title>
      <PageHeader
        title="Transactions"
        description="Every member's transactions, the payments held for review and the withdrawals waiting for a decision."
      />
      <HeldPaymentsPanel />
      <TransactionsList />
    </div>
  );
}
