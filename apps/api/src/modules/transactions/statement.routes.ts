import { Readable } from 'node:stream';
import { z } from 'zod';
import { statementQuery } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { moduleRoutes } from '../../lib/route-schemas';
import { statementFileName, statementLines } from './statement.service';

/** The member's statement: their transactions of a date range as a CSV download. */
export const statementRoutes = moduleRoutes(['transactions'], (app, deps: Deps, schemas) => {
  app.get('/transactions/export', {
    ...schemas.user(
      {
        description:
          'The caller\'s transactions from `from` to `to` (YYYY-MM-DD, UTC, both included) as a CSV attachment, oldest ' +
          'first: `Date,Type,Description,Amount (USD),Status,Reference`, money out negative. Streamed as it is read. ' +
          'Cells that a spreadsheet would read as a formula are prefixed with `\'`.',
        querystring: statementQuery,
        produces: ['text/csv'],
      },
      { 200: z.unknown().describe('The statement, text/csv') },
    ),
    handler: async (request, reply) => {
      const { user } = requireAuth(request);
      const lines = statementLines(deps, user.id, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${statementFileName(request.query)}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines));
    },
  });
});
