import { KycNotice } from '@/features/dashboard/components/kyc-notice';
import { ProjectionChart } from '@/features/dashboard/components/projection-chart';
import { QuickLinks } from '@/features/dashboard/components/quick-links';
import { SummaryCards } from '@/features/dashboard/components/summary-cards';
import { WelcomeHeader } from '@/features/dashboard/components/welcome-header';
import { FeaturedProjects } from '@/features/projects/components/featured-projects';
import { useUser } from '@/lib/auth';
import { useT } from '@/lib/i18n';

export default function DashboardRoute() {
  const user = useUser();
  const { t } = useT('dashboard');
  return (
    <div className="space-y-8">
      <title>{`${t('documentTitle')} · Terrafund`}</title>
      <div className="space-y-4">
        <WelcomeHeader user={user} />
        <KycNotice user={user} />
      </div>
      <SummaryCards />
      <ProjectionChart />
      <FeaturedProjects />
      <QuickLinks />
    </div>
  );
}
