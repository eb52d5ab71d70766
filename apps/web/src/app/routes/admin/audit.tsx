import { PageHeader } from '@/components/ui/page-header';
import { AuditLog } from '@/features/admin-audit/components/audit-log';

export default function AdminAuditRoute() {
  return (
    <div className="space-y-6">
      <title>Audit log · Terrafund</title>
      <PageHeader title="Audit log" description="Who did what and when: admin decisions and members' security changes, newest first." />
      <AuditLog />
    </div>
  );
}
