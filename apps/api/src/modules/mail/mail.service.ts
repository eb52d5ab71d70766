import { and, count, desc, eq, gt, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client';
import { leaseDue } from '../../db/lease';
import type { Language } from '@terrafund/contracts/i18n';
import { mailOutbox, users } from '../../db/schema';
import { escapeHtml } from '../../lib/html';
import { preferencesOf, unsubscribeToken, unsubscribeUrl } from './mail-preferences';
import type { Clock } from '../../lib/clock';
import { afterKey, keyTimestamp, type PageKey } from '../../lib/cursor';
import type { Secrets } from '../../lib/crypto';
import { MAIL_KINDS, mailLanguage, mailTemplates, type MailLanguage, type MailTemplateName } from './mail.templates';
import type { MailTransport } from './mail.transport';

/**
 * How long the outbox keeps trying a mail after its first failed attempt before it gives up and keeps it as
 * undeliverable (status `failed`, its body kept, listed for admins and counted by /metrics): a mail server down
 * for a day loses nothing. Attempts are spaced by mailBackoffMs, so about 30 of them in that day.
 */
export const MAIL_RETRY_WINDOW_MS = 24 * 3_600_000;
/** How long a pass holds the rows it took; another worker may take a row whose lease ran out (a killed server). */
const LEASE_MS = 120_000;
/**
 * A send is given at most this long (the SMTP transport's own timeouts add up to less): a row is only sent while
 * at least this much of its lease is left, so a lease never runs out under a send and no mail goes out twice.
 */
export const MAIL_SEND_BUDGET_MS = 45_000;
const BATCH_SIZE = 20;

/** Backoff after the nth failed attempt: 30 s, 1 min, 2 min, … capped at 1 hour. */
export const mailBackoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/**
 * Whether a failed send is the mail server being unreachable (refused connection, timeout, DNS, a dropped socket,
 * or its "421 service not available") rather than the server refusing this one mail: such mail is sent as soon as
 * the server answers again (releaseWaitingMail), not only at its next backoff time.
 */
export function serverUnreachable(error: unknown): boolean {
  const { code, command, responseCode } = (error ?? {}) as { code?: unknown; command?: unknown; responseCode?: unknown };
  return command === 'CONN' || responseCode === 421 || (typeof code === 'string' && UNREACHABLE_CODES.has(code));
}
const UNREACHABLE_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

type Deps = { secrets: Secrets; clock: Clock };
/** Queueing also needs PUBLIC_URL, for the unsubscribe link of an optional mail. */
type QueueDeps = Deps & { config: { publicUrl: string } };

/** What is sealed in the outbox: both parts of the mail, and the headers of an optional one (List-Unsubscribe). */
type SealedBody = { text: string; html: string; headers?: Record<string, string> };

/**
 * Queues a mail in the caller's transaction: the mail exists exactly when the change that causes it
 * committed. The worker sends it later.
 *
 * A template of an optional kind (MAIL_KINDS) goes only when the member whose address it is has that kind on
 * (Profile → Notifications; nothing is queued otherwise), and carries the one-click unsubscribe headers of
 * RFC 8058 and a line at its foot with the same link. Security mail (kind null) always goes, without them. It is
 * written in the language of the account at that address (users.locale; English for an address without one).
 */
export async function enqueueMail<T extends MailTemplateName>(
  tx: Executor,
  deps: QueueDeps,
  to: string,
  template: T,
  params: Parameters<(typeof mailTemplates)[T]>[0],
): Promise<boolean> {
  // The member whose address it is: their language (issue 35), and for an optional kind their preferences.
  const [member] = await tx.select({ id: users.id, locale: users.locale }).from(users).where(eq(users.email, to)).limit(1);
  const lang = mailLanguage(member?.locale);
  const content = render(template, params, lang);
  const kind = MAIL_KINDS[template];
  const body: SealedBody = { text: content.text, html: content.html };
  if (kind && member) {
    if (!(await preferencesOf(tx, member.id))[kind]) return false;
    const url = unsubscribeUrl(deps.config.publicUrl, unsubscribeToken(deps.secrets, member.id, kind));
    const label = lang.t(`mail:kinds.${kind}`);
    body.headers = { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    body.text += `\n\n${lang.t('mail:frame.unsubscribeText', { kind: label, url })}`;
    const link = `<a href="${escapeHtml(url)}">${escapeHtml(lang.t('mail:frame.unsubscribeLink'))}</a>`;
    body.html = body.html.replace(
      '</td></tr></table></td></tr></table></body>',
      `<p style="font-size:12px;color:#64748b">${lang.t('mail:frame.unsubscribeHtml', { kind: escapeHtml(label), link })}</p>\n</td></tr></table></td></tr></table></body>`,
    );
  }
  const now = deps.clock.now();
  await tx.insert(mailOutbox).values({
    template,
    recipient: to,
    subject: content.subject,
    sealedBody: deps.secrets.encrypt(JSON.stringify(body)),
    nextAttemptAt: now,
    createdAt: now,
  });
  return true;
}

/** A template rendered in a language. */
const render = <T extends MailTemplateName>(template: T, params: Parameters<(typeof mailTemplates)[T]>[0], lang: MailLanguage) =>
  (mailTemplates[template] as (p: typeof params, l: MailLanguage) => { subject: string; text: string; html: string })(params, lang);

/**
 * enqueueMail's twin for answers that must not tell whether an address has an account (auth.service.ts: sign-up,
 * resend-code, forgot-password): the mail is rendered and sealed, and the same INSERT is sent, whatever `onlyIf`
 * (a condition on the database, such as "this address has an unverified account") turns out to be; the row is
 * written only where it holds, in the caller's transaction. Whether it was is not returned: callers that need to
 * know ask the database in the same way for both. `language` is the account's (a sign-up's: the one it was made in).
 */
export async function enqueueMailIf<T extends MailTemplateName>(
  tx: Executor,
  deps: Deps,
  onlyIf: SQL,
  to: string,
  template: T,
  params: Parameters<(typeof mailTemplates)[T]>[0],
  language?: Language,
): Promise<void> {
  const content = render(template, params, mailLanguage(language));
  const now = deps.clock.now().toISOString();
  const columns = [mailOutbox.template, mailOutbox.recipient, mailOutbox.subject, mailOutbox.sealedBody, mailOutbox.nextAttemptAt, mailOutbox.createdAt];
  await tx.execute(sql`
    insert into ${mailOutbox} (${sql.join(columns.map((c) => sql.identifier(c.name)), sql`, `)})
    select ${template}, ${to}, ${content.subject}, ${deps.secrets.encrypt(JSON.stringify({ text: content.text, html: content.html }))},
      ${now}::timestamptz, ${now}::timestamptz
    where ${onlyIf}`);
}

/** A body that cannot be opened (APP_SECRET changed since it was queued): no attempt will ever send it. */
class UnreadableBody extends Error {}

function openBody(deps: Deps, sealed: string | null): SealedBody {
  if (!sealed) throw new UnreadableBody('mail body missing');
  try {
    return JSON.parse(deps.secrets.decrypt(sealed)) as SealedBody;
  } catch {
    throw new UnreadableBody('mail body cannot be decrypted (APP_SECRET changed?)');
  }
}

export type OutboxPass = { sent: number; failed: number; undeliverable: number };

/**
 * Sends what is due. Rows are leased with FOR UPDATE SKIP LOCKED, so several workers (or servers)
 * never send the same row at once; a sent row is marked in the same breath and its body erased. A failed one is
 * tried again after mailBackoffMs, for MAIL_RETRY_WINDOW_MS from its first failure, then kept as undeliverable
 * with its body, for an admin to see and send again (resendMail).
 */
export async function processOutbox(
  db: Database,
  deps: Deps & { transport: MailTransport; from: string; logger: Logger },
): Promise<OutboxPass> {
  const now = deps.clock.now();
  const leaseUntil = now.getTime() + LEASE_MS;
  const leased = await db.transaction((tx) => leaseDue(tx, mailOutbox, { now, until: new Date(leaseUntil), limit: BATCH_SIZE }));

  const result: OutboxPass = { sent: 0, failed: 0, undeliverable: 0 };
  for (const [index, row] of leased.entries()) {
    if (deps.clock.now().getTime() + MAIL_SEND_BUDGET_MS > leaseUntil) {
      // Too little of the lease is left to send safely (slow sends before): hand the rest back untried.
      await releaseLeases(db, leased.slice(index).map((r) => r.id));
      break;
    }
    try {
      const body = openBody(deps, row.sealedBody);
      await deps.transport.send({ from: deps.from, to: row.recipient, subject: row.subject, ...body });
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: deps.clock.now(), sealedBody: null, lockedUntil: null, lastError: null, waitingForServer: false })
        .where(eq(mailOutbox.id, row.id));
      result.sent += 1;
    } catch (error) {
      result.failed += 1;
      const failedAt = deps.clock.now();
      const message = error instanceof Error ? error.message : String(error);
      const firstFailedAt = row.firstFailedAt ?? failedAt;
      const unreadable = error instanceof UnreadableBody;
      const giveUp = unreadable || failedAt.getTime() - firstFailedAt.getTime() >= MAIL_RETRY_WINDOW_MS;
      if (giveUp) result.undeliverable += 1;
      deps.logger.warn(
        { mailId: row.id, attempts: row.attempts, err: message },
        giveUp ? 'mail undeliverable: kept for an admin to see and send again' : 'mail failed, will retry',
      );
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          lockedUntil: null,
          lastError: message.slice(0, 500),
          firstFailedAt,
          waitingForServer: !giveUp && serverUnreachable(error),
          nextAttemptAt: giveUp ? failedAt : new Date(failedAt.getTime() + mailBackoffMs(row.attempts)),
          // A body no key opens is of no use to anyone; any other is kept, so the mail can be sent again.
          ...(unreadable ? { sealedBody: null } : {}),
        })
        .where(eq(mailOutbox.id, row.id));
    }
  }
  return result;
}

/** Gives leased rows back untried: their attempt does not count. */
async function releaseLeases(db: Database, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .update(mailOutbox)
    .set({ lockedUntil: null, attempts: sql`${mailOutbox.attempts} - 1` })
    .where(inArray(mailOutbox.id, ids));
}

/** Whether mail is backing off because the mail server could not be reached. */
export async function mailWaitingForServer(db: Database, clock: Clock): Promise<boolean> {
  const [row] = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), eq(mailOutbox.waitingForServer, true), gt(mailOutbox.nextAttemptAt, clock.now())))
    .limit(1);
  return row !== undefined;
}

/**
 * The mail server answers again: every mail that was backing off because it could not be reached is due now,
 * instead of at its next backoff time (up to an hour away). Returns how many.
 */
export async function releaseWaitingMail(db: Database, clock: Clock): Promise<number> {
  const now = clock.now();
  const released = await db
    .update(mailOutbox)
    .set({ nextAttemptAt: now })
    .where(and(eq(mailOutbox.status, 'pending'), eq(mailOutbox.waitingForServer, true), gt(mailOutbox.nextAttemptAt, now)))
    .returning({ id: mailOutbox.id });
  return released.length;
}

/** How many mails the outbox gave up on (for /metrics and the admin list). */
export async function countUndeliverableMail(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'failed'));
  return row?.n ?? 0;
}

export type UndeliverableMail = {
  id: string;
  recipient: string;
  subject: string;
  template: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  firstFailedAt: Date | null;
  /** Mail given up on before its body was kept, or whose body no key opens, cannot be sent again. */
  resendable: boolean;
};

/**
 * Undeliverable mail, newest first (created_at desc, id desc: the partial index), `limit` a page after `after`;
 * `next` is the key of the last row when a further page may follow.
 */
export async function listUndeliverableMail(
  db: Executor,
  page: { limit: number; after?: PageKey },
): Promise<{ rows: UndeliverableMail[]; next?: PageKey }> {
  const rows = await db
    .select({
      id: mailOutbox.id,
      recipient: mailOutbox.recipient,
      subject: mailOutbox.subject,
      template: mailOutbox.template,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      firstFailedAt: mailOutbox.firstFailedAt,
      resendable: sql<boolean>`${mailOutbox.sealedBody} is not null`,
      key: keyTimestamp(mailOutbox.createdAt),
    })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'failed'), afterKey(mailOutbox.createdAt, mailOutbox.id, page.after)))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(page.limit);
  const last = rows.at(-1);
  return {
    rows: rows.map(({ key: _key, ...r }) => ({ ...r, resendable: Boolean(r.resendable) })),
    ...(last && rows.length === page.limit ? { next: { createdAt: last.key, id: last.id } } : {}),
  };
}

/**
 * Puts an undeliverable mail back in the outbox as if just queued: a fresh 24 hours of attempts. `not-found` when
 * there is no such undeliverable mail, `no-body` when its body is gone (it cannot be sent again).
 */
export async function resendMail(db: Executor, clock: Clock, id: string): Promise<'queued' | 'not-found' | 'no-body'> {
  const [row] = await db
    .update(mailOutbox)
    .set({ status: 'pending', attempts: 0, firstFailedAt: null, waitingForServer: false, lastError: null, lockedUntil: null, nextAttemptAt: clock.now() })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed'), isNotNull(mailOutbox.sealedBody)))
    .returning({ id: mailOutbox.id });
  if (row) return 'queued';
  const [existing] = await db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return existing?.status === 'failed' ? 'no-body' : 'not-found';
}
