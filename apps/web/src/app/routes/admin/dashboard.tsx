import { PageHeader } from '@/components/ui/page-header';
import { AdminDashboard } from '@/features/admin-dashboard/components/admin-dashboard';

export default function AdminDashboardRoute() {
  return (
    <div className="space-y-6">
      <title>Admin Dashboard · Terrafund</title>
      <PageHeader title="Admin Dashboard" description="Platform statistics and the latest transactions." />
      <AdminDashboard />
    </div>
  );
}
