import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { AuditLog } from '@/features/admin-audit/components/audit-log';

export default function AdminAuditRoute() {
  const { t } = useT('admin');
  return (
    <Screen title={t('screens.audit.title')} description={t('screens.audit.description')}>
      <AuditLog />
    </Screen>
  );
}
