import { ComingSoon } from '@/components/ui/coming-soon';

export default function KycRoute() {
  return <ComingSoon title="KYC Verification" description="Verify your identity to unlock investing and withdrawals." />;
}
