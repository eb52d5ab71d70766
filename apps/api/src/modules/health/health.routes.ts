import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicConfigSchema } from '@terrafund/contracts';
import { pingDatabase } from '../../db/client';
import type { Deps } from '../../deps';

/** Liveness that means something: ok only when the database answers. */
export const healthRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/health', {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.literal('unavailable') }) },
      },
      handler: async (_request, reply) =>
        (await pingDatabase(deps.db)) ? { status: 'ok' as const } : reply.status(503).send({ status: 'unavailable' as const }),
    });

    app.get('/config', {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        description: 'Public settings the web app shows: contact details and the deposit address.',
        response: { 200: publicConfigSchema },
      },
      handler: async () => ({
        contactEmail: deps.config.contact.email,
        contactPhone: deps.config.contact.phone,
        depositAddress: deps.config.depositAddress,
      }),
    });
  };
