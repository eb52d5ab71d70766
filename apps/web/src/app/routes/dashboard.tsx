import { KycNotice } from '@/features/dashboard/components/kyc-notice';
import { QuickLinks } from '@/features/dashboard/components/quick-links';
import { WelcomeHeader } from '@/features/dashboard/components/welcome-header';
import { useUser } from '@/lib/auth';

export default function DashboardRoute() {
  const user = useUser();
  return (
    <div className="space-y-8">
      <title>Dashboard · Terrafund</title>
      <WelcomeHeader user={user} />
      <KycNotice user={user} />
      <QuickLinks />
    </div>
  );
}
