import { auditListSchema, auditQuery } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { moduleRoutes } from '../../lib/route-schemas';
import { auditCsv, listAudit } from './audit.service';

/** The admin audit screen's data (issue 15). */
export const auditRoutes = moduleRoutes(['admin'], (app, deps: Deps, schemas) => {
  app.get('/admin/audit', {
    ...schemas.admin(
      {
        description:
          'Every recorded admin and security decision, newest first: `limit` (default 50, at most 100), `actor` (an e-mail), `action` (an exact name), `from`/`to` (UTC days, both included). The next page\'s cursor is in `X-Next-Cursor` (absent on the last page). `format=csv` answers the same rows as a CSV download.',
        querystring: auditQuery,
      },
      { 200: auditListSchema },
    ),
    handler: async (request, reply) => {
      const page = await listAudit(deps, request.query);
      if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
      if (request.query.format === 'csv') {
        // A string body is sent as it is, past the JSON response schema: the same rows, in another format.
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="terrafund-audit-log.csv"')
          .send(auditCsv(page.rows) as never);
      }
      return page.rows;
    },
  });
});
