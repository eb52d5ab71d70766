import { ComingSoon } from '@/components/ui/coming-soon';

export default function WalletRoute() {
  return <ComingSoon title="Plan" description="Your membership plan, wallet balance, transactions and withdrawals." />;
}
