import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dashboardSchema, performanceQuery, projectionPointSchema } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../../plugins/access';
import { errorResponses } from '../../plugins/responses';
import { dashboardFor, projectionFor } from './dashboard.service';

/** The member dashboard's figures and projection (docs/product.md §5.2). */
export const dashboardRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const security = [{ bearer: [] }];
    app.get('/users/dashboard', {
      config: { access: 'user' },
      schema: { tags: ['dashboard'], security, response: { 200: dashboardSchema, ...errorResponses } },
      handler: async (request) => dashboardFor(deps, requireAuth(request).user),
    });
    app.get('/users/investment-performance', {
      config: { access: 'user' },
      schema: {
        tags: ['dashboard'],
        security,
        querystring: performanceQuery,
        response: { 200: z.array(projectionPointSchema), ...errorResponses },
      },
      handler: async (request) => projectionFor(deps, requireAuth(request).user, request.query.period),
    });
  };
