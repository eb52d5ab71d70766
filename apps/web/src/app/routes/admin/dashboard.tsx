import { Screen } from '@/components/ui/screen';
import { AdminDashboard } from '@/features/admin-dashboard/components/admin-dashboard';

export default function AdminDashboardRoute() {
  return (
    <Screen title="Admin Dashboard" description="Platform statistics and the latest transactions.">
      <AdminDashboard />
    </Screen>
  );
}
