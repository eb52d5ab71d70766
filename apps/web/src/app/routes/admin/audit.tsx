import { Screen } from '@/components/ui/screen';
import { AuditLog } from '@/features/admin-audit/components/audit-log';

export default function AdminAuditRoute() {
  return (
    <Screen title="Audit log" description="Who did what and when: admin decisions and members' security changes, newest first.">
      <AuditLog />
    </Screen>
  );
}
