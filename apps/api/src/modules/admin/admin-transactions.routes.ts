import { z } from 'zod';
import { adminTransactionSchema, adminTransactionsQuery } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { moduleRoutes } from '../../lib/route-schemas';
import { withAdminWithdrawalFields } from '../withdrawals';
import * as service from './admin-transactions.service';
import { PageBookmarks } from './page-bookmarks';

/** The admin's transactions (docs/product.md §7.1 Admin): the newest ones, and the paged list of all of them. */
export const adminTransactionsRoutes = moduleRoutes(['admin'], (app, deps: Deps, schemas) => {
  // One per app: where each page of each search ended (page-bookmarks.ts).
  const bookmarks = new PageBookmarks();

  app.get('/admin/dashboard/transactions', {
    ...schemas.admin(
      {
        description: 'The 10 newest transactions with their members.',
      },
      { 200: z.array(adminTransactionSchema) },
    ),
    handler: async () => withAdminWithdrawalFields(deps.db, await service.recentTransactions(deps)),
  });

  app.get('/admin/transactions', {
    ...schemas.admin(
      {
        description:
          '20 a page, newest first, `[]` past the end. `search` matches e-mail, names, a transaction id, a type or a status (every word must match). When a next page exists the answer names it in `X-Next-Cursor` and `Link: <…>; rel="next"`; `cursor` continues from there.',
        querystring: adminTransactionsQuery,
      },
      { 200: z.array(adminTransactionSchema) },
    ),
    handler: async (request, reply) => {
      const page = await service.listTransactions(deps, bookmarks, request.query);
      if (page.next) {
        const query = new URLSearchParams({ page: String(page.next.page) });
        if (request.query.search) query.set('search', request.query.search);
        query.set('cursor', page.next.cursor);
        reply.header('x-next-cursor', page.next.cursor);
        reply.header('link', `</api/admin/transactions?${query.toString()}>; rel="next"`);
      }
      return withAdminWithdrawalFields(deps.db, page.items);
    },
  });
});
