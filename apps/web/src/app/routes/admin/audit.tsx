import { AuditLog } from '@/features/admin-audit/components/audit-log';
import { titledScreen } from '../titled-screen';

export default titledScreen('admin', 'screens.audit', AuditLog);
