import { z } from 'zod';
import { dashboardSchema, performanceQuery, projectionPointSchema } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { moduleRoutes } from '../../lib/route-schemas';
import { dashboardFor, projectionFor } from './dashboard.service';

/** The member dashboard's figures and projection (docs/product.md §5.2). */
export const dashboardRoutes = moduleRoutes(['dashboard'], (app, deps: Deps, schemas) => {
  app.get('/users/dashboard', {
    ...schemas.user({}, { 200: dashboardSchema }),
    handler: async (request) => dashboardFor(deps, requireAuth(request).user),
  });
  app.get('/users/investment-performance', {
    ...schemas.user(
      {
        querystring: performanceQuery,
      },
      { 200: z.array(projectionPointSchema) },
    ),
    handler: async (request) => projectionFor(deps, requireAuth(request).user, request.query.period),
  });
});
