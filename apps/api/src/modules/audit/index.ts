/** What other modules may use of audit. */
export { auditTrail, recordAudit } from './audit.service';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { auditRoutes } from './audit.routes';
