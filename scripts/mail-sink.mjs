// A real SMTP server for the browser tests: the product sends mail through SMTP_URL exactly as in
// production, and the tests read what arrived over a small HTTP mailbox on 127.0.0.1.
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

/**
 * Undoes quoted-printable soft breaks and escapes so codes and links can be read with a regex.
 * @param {string} raw
 */
export function decodeQuotedPrintable(raw) {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, /** @type {string} */ hex) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The Subject header as a person reads it: unfolded, its RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`,
 * what a Spanish or French subject arrives as) decoded.
 * @param {string} raw the whole message
 */
export function subjectOf(raw) {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, /** @type {string} */ charset, /** @type {string} */ kind, /** @type {string} */ text) => {
      const bytes =
        kind.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, /** @type {string} */ hex) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
      return new TextDecoder(charset).decode(bytes);
    });
}

/** @typedef {{ to: string[]; subject: string; body: string; receivedAt: string }} SunkMail */

export async function startMailSink() {
  /** @type {SunkMail[]} */
  const messages = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        const subject = subjectOf(raw);
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject,
          body: decodeQuotedPrintable(raw),
          receivedAt: new Date().toISOString(),
        });
        callback();
      });
    },
  });
  /** @type {import('node:net').Server} */
  const smtpServer = smtp.server;
  await new Promise((resolve) => smtpServer.listen(0, '127.0.0.1', () => resolve(undefined)));
  const smtpPort = /** @type {import('node:net').AddressInfo} */ (smtpServer.address()).port;

  const mailbox = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(list));
  });
  await new Promise((resolve) => mailbox.listen(0, '127.0.0.1', () => resolve(undefined)));
  const mailboxPort = /** @type {import('node:net').AddressInfo} */ (mailbox.address()).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    mailboxUrl: `http://127.0.0.1:${mailboxPort}`,
    async close() {
      await new Promise((resolve) => smtp.close(() => resolve(undefined)));
      await new Promise((resolve) => mailbox.close(() => resolve(undefined)));
    },
  };
}
