/** What other modules may use of privacy: the opt-in mails the payout run and project creation send. */
export { mailDividendsPaid, mailNewProject } from './opt-in-mail.service';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes, the CLI's close and export, the jobs' passes.
export { oneClickUnsubscribeRoutes, privacyRoutes } from './privacy.routes';
export { closeAccount } from './close-account.service';
export { buildExportZip, processDataExports, purgeExpiredExports, type ExportDeps, type PrivacyDeps } from './data-export.service';
export { purgeExpiredKyc } from './kyc-retention.service';
