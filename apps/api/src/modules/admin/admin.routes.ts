import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminStatsSchema,
  adminTransactionSchema,
  adminTransactionsQuery,
  monthlyStatsParams,
  transactionMonthlyStatsSchema,
  transactionStatsSchema,
  userMonthlyStatsSchema,
  userStatsSchema,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { errorResponses } from '../../plugins/responses';
import * as service from './admin.service';
import { PageBookmarks } from './transactions-page';

/**
 * The admin's money views (docs/product.md §7.1 Figures, Admin; docs/product.md §9.1 General): dashboard figures, the newest
 * transactions, the paged list of all transactions, and the user and transaction statistics. `/users/stats`
 * and `/transactions/stats` sit beside `/users/:id` and `/transactions/:id` of other modules: Fastify's router
 * prefers a static segment to a parameter, whatever the registration order.
 */
export const adminRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { access: 'admin' as const };
    const security = [{ bearer: [] }];
    const tags = ['admin'];
    // One per app: where each page of each search ended (transactions-page.ts).
    const bookmarks = new PageBookmarks();

    app.get('/admin/dashboard/stats', {
      config,
      schema: {
        tags,
        security,
        description:
          'Members, USD invested (completed deposits and project investments), the latest day of dividends, this month\'s volume, and 30-day growth in percent.',
        response: { 200: adminStatsSchema, ...errorResponses },
      },
      handler: async () => service.dashboardStats(deps),
    });

    app.get('/admin/dashboard/transactions', {
      config,
      schema: {
        tags,
        security,
        description: 'The 10 newest transactions with their members.',
        response: { 200: z.array(adminTransactionSchema), ...errorResponses },
      },
      handler: async () => service.recentTransactions(deps),
    });

    app.get('/admin/transactions', {
      config,
      schema: {
        tags,
        security,
        description:
          '20 a page, newest first, `[]` past the end. `search` matches e-mail, names, a transaction id, a type or a status (every word must match). When a next page exists the answer names it in `X-Next-Cursor` and `Link: <…>; rel="next"`; `cursor` continues from there.',
        querystring: adminTransactionsQuery,
        response: { 200: z.array(adminTransactionSchema), ...errorResponses },
      },
      handler: async (request, reply) => {
        const page = await service.listTransactions(deps, bookmarks, request.query);
        if (page.next) {
          const query = new URLSearchParams({ page: String(page.next.page) });
          if (request.query.search) query.set('search', request.query.search);
          query.set('cursor', page.next.cursor);
          reply.header('x-next-cursor', page.next.cursor);
          reply.header('link', `</api/admin/transactions?${query.toString()}>; rel="next"`);
        }
        return page.items;
      },
    });

    app.get('/users/stats', {
      config,
      schema: { tags, security, response: { 200: userStatsSchema, ...errorResponses } },
      handler: async () => service.userStats(deps),
    });

    app.get('/users/stats/monthly/:year/:month', {
      config,
      schema: { tags, security, params: monthlyStatsParams, response: { 200: userMonthlyStatsSchema, ...errorResponses } },
      handler: async (request) => service.userMonthlyStats(deps, request.params.year, request.params.month),
    });

    app.get('/transactions/stats', {
      config,
      schema: { tags, security, response: { 200: transactionStatsSchema, ...errorResponses } },
      handler: async () => service.transactionStats(deps),
    });

    app.get('/transactions/stats/monthly/:year/:month', {
      config,
      schema: {
        tags,
        security,
        params: monthlyStatsParams,
        response: { 200: transactionMonthlyStatsSchema, ...errorResponses },
      },
      handler: async (request) => service.transactionMonthlyStats(deps, request.params.year, request.params.month),
    });
  };
