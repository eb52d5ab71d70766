import { HeldPaymentsPanel } from '@/features/admin-payments/components/held-payments-panel';
import { TransactionsList } from '@/features/admin-transactions/components/transactions-list';
import { titledScreen } from '../titled-screen';

/** The payments held for review above every member's transactions and withdrawals. */
function TransactionsScreen() {
  return (
    <>
      <HeldPaymentsPanel />
      <TransactionsList />
    </>
  );
}

export default titledScreen('admin', 'screens.transactions', TransactionsScreen);
