import {
  idParam,
  mailMessages,
  resendMailResponse,
  UNDELIVERABLE_MAIL_PAGE,
  undeliverableMailPageSchema,
  undeliverableMailQuery,
  UUID_PATTERN,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { encodeCursor, readCursor } from '../../lib/cursor';
import { requireAuth } from '../sessions';
import { moduleRoutes } from '../../lib/route-schemas';
import { countUndeliverableMail, listUndeliverableMail, resendMail } from './mail.service';

/** The admin's view of mail the outbox gave up on, and sending one again. */
export const mailAdminRoutes = moduleRoutes(['admin', 'mail'], (app, deps: Deps, schemas) => {
  app.get('/admin/mail/undeliverable', {
    ...schemas.admin(
      {
        description:
          'Mail the outbox tried for 24 hours without getting it through (the mail server down or refusing it), newest first, ' +
          `${UNDELIVERABLE_MAIL_PAGE} a page: \`nextCursor\` goes back as \`cursor\` (null on the last page). \`total\` is the count ` +
          '`/metrics` reports as `terrafund_mail_undeliverable`. `resendable` is false when the content was not kept.',
        querystring: undeliverableMailQuery,
      },
      { 200: undeliverableMailPageSchema },
    ),
    handler: async (request) => {
      const after = readCursor(request.query.cursor, mailMessages.cursorInvalid);
      const [page, total] = await Promise.all([
        listUndeliverableMail(deps.db, { limit: UNDELIVERABLE_MAIL_PAGE, after }),
        countUndeliverableMail(deps.db),
      ]);
      return {
        items: page.rows.map((m) => ({
          ...m,
          createdAt: m.createdAt.toISOString(),
          firstFailedAt: m.firstFailedAt?.toISOString() ?? null,
        })),
        total,
        nextCursor: page.next ? encodeCursor(page.next) : null,
      };
    },
  });

  app.post('/admin/mail/:id/resend', {
    ...schemas.admin(
      {
        description:
          'Puts an undeliverable mail back in the outbox with a fresh 24 hours of attempts; the worker sends it at once. ' +
          '404 when no undeliverable mail has this id (already sent again, or never given up on); 409 when its content ' +
          'was not kept. A code or link in it may have expired since: the member asks for a new one.',
        params: idParam,
      },
      { 200: resendMailResponse },
    ),
    handler: async (request) => {
      const admin = requireAuth(request).user;
      const { id } = request.params;
      const outcome = UUID_PATTERN.test(id) ? await resendMail(deps.db, deps.clock, id) : 'not-found';
      if (outcome === 'not-found') throw new AppError('NOT_FOUND', mailMessages.notUndeliverable);
      if (outcome === 'no-body') throw new AppError('CONFLICT', mailMessages.noBody);
      request.log.info({ mailId: id, adminId: admin.id }, 'undeliverable mail queued again by an admin');
      deps.mailQueued();
      return { id, message: mailMessages.resent };
    },
  });
});
