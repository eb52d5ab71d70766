import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dashboardSchema, performanceQuery, projectionPointSchema } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../../plugins/access';
import { routeSchemas } from '../../plugins/responses';
import { dashboardFor, projectionFor } from './dashboard.service';

/** The member dashboard's figures and projection (docs/product.md §5.2). */
export const dashboardRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const schemas = routeSchemas(['dashboard']);
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
  };
