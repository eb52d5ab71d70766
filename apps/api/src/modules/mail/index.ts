/** What other modules may use of mail: queueing a mail in the caller's transaction, and the outbox worker's pass. */
export { enqueueMail, processOutbox } from './mail.service';
export type { MailTransport } from './mail.transport';
