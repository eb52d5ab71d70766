// A real SMTP server for the browser tests: the product sends mail through SMTP_URL exactly as in
// production, and the tests read what arrived over a small HTTP mailbox on 127.0.0.1.
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

/** Undoes quoted-printable soft breaks and escapes so codes and links can be read with a regex. */
export function decodeQuotedPrintable(raw) {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startMailSink() {
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
        const subject = /^Subject: (.*)$/im.exec(raw)?.[1] ?? '';
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
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = smtp.server.address().port;

  const mailbox = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(list));
  });
  await new Promise((resolve) => mailbox.listen(0, '127.0.0.1', resolve));
  const mailboxPort = mailbox.address().port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    mailboxUrl: `http://127.0.0.1:${mailboxPort}`,
    async close() {
      await new Promise((resolve) => smtp.close(resolve));
      await new Promise((resolve) => mailbox.close(resolve));
    },
  };
}
