/** What other modules may use of audit. */
export { auditTrail, recordAudit } from './audit.service';
