import { RecentTransactions } from './recent-transactions';
import { StatsCards } from './stats-cards';

/** The admin's overview: the platform's figures, then its latest transactions. */
export function AdminDashboard() {
  return (
    <div className="space-y-6">
      <StatsCards />
      <RecentTransactions />
    </div>
  );
}
