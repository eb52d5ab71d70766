import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { AdminDashboard } from '@/features/admin-dashboard/components/admin-dashboard';

export default function AdminDashboardRoute() {
  const { t } = useT('admin');
  return (
    <Screen title={t('screens.dashboard.title')} description={t('screens.dashboard.description')}>
      <AdminDashboard />
    </Screen>
  );
}
