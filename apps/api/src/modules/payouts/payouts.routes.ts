import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps';
import { runPayouts } from '../../jobs/payouts';
import { errorResponses } from '../../plugins/responses';

/** The scheduler's payout job, on demand (decisions section 1). Paying twice is impossible, so it is safe to press. */
export const payoutRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post('/admin/payouts/run', {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        description: 'Pays every business day that is due and not yet paid, and answers what it paid.',
        response: {
          200: z.object({ days: z.array(z.string()), paid: z.number(), amount: z.number() }),
          ...errorResponses,
        },
      },
      handler: async () => {
        const result = await runPayouts(deps.db, { clock: deps.clock, payoutTime: deps.config.payoutTime });
        return { days: result.days, paid: result.paid, amount: result.amountCents / 100 };
      },
    });
  };
