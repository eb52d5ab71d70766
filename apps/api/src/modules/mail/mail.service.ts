import { and, eq, inArray, lte, or, isNull, lt, asc, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { Secrets } from '../../lib/crypto';
import { mailTemplates, type MailTemplateName } from './mail.templates';
import type { MailTransport } from './mail.transport';

export const MAIL_MAX_ATTEMPTS = 8;
const LEASE_MS = 60_000;
const BATCH_SIZE = 20;

/** Backoff after the nth failed attempt: 30 s, 1 min, 2 min, … capped at 1 hour. */
export const mailBackoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

type Deps = { secrets: Secrets; clock: Clock };

/**
 * Queues a mail in the caller's transaction: the mail exists exactly when the change that causes it
 * committed. The worker sends it later.
 */
export async function enqueueMail<T extends MailTemplateName>(
  tx: Executor,
  deps: Deps,
  to: string,
  template: T,
  params: Parameters<(typeof mailTemplates)[T]>[0],
): Promise<void> {
  const content = (mailTemplates[template] as (p: typeof params) => { subject: string; text: string; html: string })(params);
  const now = deps.clock.now();
  await tx.insert(mailOutbox).values({
    template,
    recipient: to,
    subject: content.subject,
    sealedBody: deps.secrets.encrypt(JSON.stringify({ text: content.text, html: content.html })),
    nextAttemptAt: now,
    createdAt: now,
  });
}

/**
 * Sends what is due. Rows are leased with FOR UPDATE SKIP LOCKED, so several workers (or servers)
 * never send the same row at once; a sent row is marked in the same breath and its body erased.
 */
export async function processOutbox(
  db: Database,
  deps: Deps & { transport: MailTransport; from: string; logger: Logger },
): Promise<{ sent: number; failed: number }> {
  const now = deps.clock.now();
  const leased = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          lte(mailOutbox.nextAttemptAt, now),
          or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, now)),
        ),
      )
      .orderBy(asc(mailOutbox.createdAt))
      .limit(BATCH_SIZE)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(mailOutbox)
      .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${mailOutbox.attempts} + 1` })
      .where(inArray(
        mailOutbox.id,
        due.map((d) => d.id),
      ))
      .returning();
  });

  let sent = 0;
  let failed = 0;
  for (const row of leased) {
    try {
      if (!row.sealedBody) throw new Error('mail body missing');
      const body = JSON.parse(deps.secrets.decrypt(row.sealedBody)) as { text: string; html: string };
      await deps.transport.send({ from: deps.from, to: row.recipient, subject: row.subject, ...body });
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: deps.clock.now(), sealedBody: null, lockedUntil: null, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent += 1;
    } catch (error) {
      failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= MAIL_MAX_ATTEMPTS;
      deps.logger.warn({ mailId: row.id, attempts: row.attempts, err: message }, giveUp ? 'mail failed for good' : 'mail failed, will retry');
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          lockedUntil: null,
          lastError: message.slice(0, 500),
          nextAttemptAt: new Date(deps.clock.now().getTime() + mailBackoffMs(row.attempts)),
          ...(giveUp ? { sealedBody: null } : {}),
        })
        .where(eq(mailOutbox.id, row.id));
    }
  }
  return { sent, failed };
}
