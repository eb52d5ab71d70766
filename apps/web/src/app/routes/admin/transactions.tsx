import { Screen } from '@/components/ui/screen';
import { HeldPaymentsPanel } from '@/features/admin-payments/components/held-payments-panel';
import { TransactionsList } from '@/features/admin-transactions/components/transactions-list';

export default function AdminTransactionsRoute() {
  return (
    <Screen
      title="Transactions"
      description="Every member's transactions, the payments held for review and the withdrawals waiting for a decision."
    >
      <HeldPaymentsPanel />
      <TransactionsList />
    </Screen>
  );
}
