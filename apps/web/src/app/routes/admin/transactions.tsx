import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { HeldPaymentsPanel } from '@/features/admin-payments/components/held-payments-panel';
import { TransactionsList } from '@/features/admin-transactions/components/transactions-list';

export default function AdminTransactionsRoute() {
  const { t } = useT('admin');
  return (
    <Screen
      title={t('screens.transactions.title')}
      description={t('screens.transactions.description')}
    >
      <HeldPaymentsPanel />
      <TransactionsList />
    </Screen>
  );
}
