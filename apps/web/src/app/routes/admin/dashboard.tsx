import { ComingSoon } from '@/components/ui/coming-soon';

export default function AdminDashboardRoute() {
  return <ComingSoon title="Admin Dashboard" description="Platform statistics and recent transactions." />;
}
