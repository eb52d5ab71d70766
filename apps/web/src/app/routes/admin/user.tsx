import { ComingSoon } from '@/components/ui/coming-soon';

export default function AdminUserRoute() {
  return <ComingSoon title="User Details" description="A member's profile, KYC documents and transactions." />;
}
