import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicConfigSchema } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { checkReadiness, type DependencyCheck, type StartupState } from './readiness';

const dependencyStatus = z.enum(['ok', 'error', 'timeout', 'starting']);

/**
 * Readiness: ok only when every shared dependency (the database; the bucket and Redis when configured) answers
 * and the instance has finished starting, so a proxy sends traffic only to instances that can serve it.
 */
export const healthRoutes =
  (deps: Deps & { readiness: DependencyCheck[]; startup: StartupState }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/health', {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        description: '200 when the instance can serve; 503 naming each failing dependency otherwise.',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('error'), failing: z.array(z.string()), dependencies: z.record(z.string(), dependencyStatus) }),
        },
      },
      handler: async (request, reply) => {
        const readiness = await checkReadiness(deps.readiness, deps.startup, (name, error) =>
          request.log.warn({ err: error, dependency: name }, 'readiness check failed'),
        );
        if (readiness.ok) return { status: 'ok' as const };
        reply.header('cache-control', 'no-store');
        return reply.status(503).send({ status: 'error' as const, failing: readiness.failing, dependencies: readiness.dependencies });
      },
    });

    app.get('/config', {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        description: 'Public settings the web app shows: contact details (packs are paid only through the provider’s checkout).',
        response: { 200: publicConfigSchema },
      },
      handler: async () => ({
        contactEmail: deps.config.contact.email,
        contactPhone: deps.config.contact.phone,
      }),
    });
  };
