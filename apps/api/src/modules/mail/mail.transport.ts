import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** `headers`: an optional mail's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
export type OutgoingMail = { from: string; to: string; subject: string; text: string; html: string; headers?: Record<string, string> };
export type MailTransport = {
  send(mail: OutgoingMail): Promise<void>;
  /** Resolves when the mail server answers (connects and greets); for telling when a server that was down is back. */
  verify?(): Promise<void>;
};

/**
 * Real mail through SMTP_URL. Its timeouts (10 s to connect, 10 s for the greeting, 20 s of a silent socket) keep a
 * send within the outbox's MAIL_SEND_BUDGET_MS, so a hanging server cannot outlast the lease on its mail.
 */
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
    async verify() {
      await transporter.verify();
    },
  };
}

/** Said once at start when mail goes to the log with its bodies: they carry codes and reset links. */
export const MAIL_LOG_WARNING =
  'Mail is printed to this log, verification codes and reset links included: development only. Set SMTP_URL to send real mail.';
/** Said once at start when mail goes to the log outside development: bodies are withheld. */
export const MAIL_WITHHELD_WARNING =
  'SMTP_URL is not set: mail is not sent, and outside development its body is not printed either (only the address and subject).';

/**
 * No SMTP_URL: each mail goes to the log. In development the text part is printed too, so codes and links can
 * be read there (that is this transport's job); in any other mode a mail body never reaches a log line.
 */
export function logTransport(logger: Logger, options: { printBodies: boolean }): MailTransport {
  return {
    async send(mail) {
      const about = { mail: { to: mail.to, subject: mail.subject } };
      if (options.printBodies) logger.info(about, `mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
      else logger.info(about, `mail to ${mail.to}: ${mail.subject} (body withheld outside development)`);
    },
  };
}

/** Keeps mail in memory; used by tests to read codes and links. */
export function memoryTransport() {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    async send(mail: OutgoingMail) {
      sent.push(mail);
    },
  };
}
