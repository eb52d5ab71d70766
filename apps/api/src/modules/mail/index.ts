/**
 * What other modules may use of mail: queueing a mail in the caller's transaction, the outbox worker's pass and its
 * release of mail that waited for the server, and the undeliverable mail (count for /metrics, list and resend).
 */
export {
  countUndeliverableMail,
  enqueueMail,
  enqueueMailIf,
  listUndeliverableMail,
  mailWaitingForServer,
  processOutbox,
  releaseWaitingMail,
  resendMail,
} from './mail.service';
export type { MailTransport } from './mail.transport';
export { preferencesOf, readUnsubscribeToken, savePreferences, unsubscribeToken, unsubscribeUrl } from './mail-preferences';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes and the transports the server picks.
export { mailAdminRoutes } from './mail-admin.routes';
export { logTransport, MAIL_LOG_WARNING, MAIL_WITHHELD_WARNING, smtpTransport } from './mail.transport';
