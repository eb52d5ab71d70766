import { ComingSoon } from '@/components/ui/coming-soon';

export default function AdminTransactionsRoute() {
  return <ComingSoon title="Transactions" description="All transactions, and the withdrawals waiting for a decision." />;
}
