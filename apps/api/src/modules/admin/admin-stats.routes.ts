import {
  adminStatsSchema,
  monthlyStatsParams,
  transactionMonthlyStatsSchema,
  transactionStatsSchema,
  userMonthlyStatsSchema,
  userStatsSchema,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { moduleRoutes } from '../../lib/route-schemas';
import * as service from './admin-stats.service';

/**
 * The admin's figures (docs/product.md §7.1 Figures, Admin; docs/product.md §9.1 General): the dashboard figures and the
 * user and transaction statistics. `/users/stats` and `/transactions/stats` sit beside `/users/:id` and
 * `/transactions/:id` of other modules: Fastify's router prefers a static segment to a parameter, whatever the
 * registration order.
 */
export const adminStatsRoutes = moduleRoutes(['admin'], (app, deps: Deps, schemas) => {

  app.get('/admin/dashboard/stats', {
    ...schemas.admin(
      {
        description:
          'Members, USD invested (completed deposits and project investments), the latest day of dividends, this month\'s volume, and 30-day growth in percent.',
      },
      { 200: adminStatsSchema },
    ),
    handler: async () => service.dashboardStats(deps),
  });

  app.get('/users/stats', {
    ...schemas.admin({}, { 200: userStatsSchema }),
    handler: async () => service.userStats(deps),
  });

  app.get('/users/stats/monthly/:year/:month', {
    ...schemas.admin({ params: monthlyStatsParams }, { 200: userMonthlyStatsSchema }),
    handler: async (request) => service.userMonthlyStats(deps, request.params.year, request.params.month),
  });

  app.get('/transactions/stats', {
    ...schemas.admin({}, { 200: transactionStatsSchema }),
    handler: async () => service.transactionStats(deps),
  });

  app.get('/transactions/stats/monthly/:year/:month', {
    ...schemas.admin(
      {
        params: monthlyStatsParams,
      },
      { 200: transactionMonthlyStatsSchema },
    ),
    handler: async (request) => service.transactionMonthlyStats(deps, request.params.year, request.params.month),
  });
});
