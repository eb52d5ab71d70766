import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export type OutgoingMail = { from: string; to: string; subject: string; text: string; html: string };
export type MailTransport = { send(mail: OutgoingMail): Promise<void> };

/** Real mail through SMTP_URL. */
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
  };
}

/** No SMTP_URL: each mail is printed to the log, text part included, so codes and links can be read there. */
export function logTransport(logger: Logger): MailTransport {
  return {
    async send(mail) {
      logger.info({ mail: { to: mail.to, subject: mail.subject } }, `mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
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
export type MemoryTransport = ReturnType<typeof memoryTransport>;
