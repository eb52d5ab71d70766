import { ComingSoon } from '@/components/ui/coming-soon';

export default function AdminUsersRoute() {
  return <ComingSoon title="Manage Users" description="Every member, their KYC status and their details." />;
}
