import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { centsToUsd, MIN_WITHDRAWAL_USD, publicConfigSchema, withdrawalAsset } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { createReadinessProbe, type DependencyCheck, type StartupState } from './readiness';

const dependencyStatus = z.enum(['ok', 'error', 'timeout', 'starting']);

/**
 * Readiness: ok only when every shared dependency (the database; the bucket and Redis when configured) answers
 * and the instance has finished starting, so a proxy sends traffic only to instances that can serve it.
 */
export const healthRoutes =
  (deps: Deps & { readiness: DependencyCheck[]; startup: StartupState }): FastifyPluginAsyncZod =>
  async (app) => {
    const readiness = createReadinessProbe(deps.readiness, { clock: deps.clock });
    app.get('/health', {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        description:
          '200 when the instance can serve; 503 naming each failing dependency otherwise. The dependencies are asked at most ' +
          'once a second per instance: requests in between share the last answer.',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('error'), failing: z.array(z.string()), dependencies: z.record(z.string(), dependencyStatus) }),
        },
      },
      handler: async (request, reply) => {
        const answer = await readiness(deps.startup, (name, error) =>
          request.log.warn({ err: error, dependency: name }, 'readiness check failed'),
        );
        if (answer.ok) return { status: 'ok' as const };
        reply.header('cache-control', 'no-store');
        return reply.status(503).send({ status: 'error' as const, failing: answer.failing, dependencies: answer.dependencies });
      },
    });

    app.get('/config', {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        description: 'Public settings the web app shows: contact details (packs are paid only through the provider’s checkout), and the coins withdrawals are paid out in with the fee, the minimum, the daily limit and the payout provider.',
        response: { 200: publicConfigSchema },
      },
      handler: async () => {
        const w = deps.config.withdrawals;
        const feeUsd = centsToUsd(w.feeCents);
        return {
          contactEmail: deps.config.contact.email,
          contactPhone: deps.config.contact.phone,
          withdrawalAssets: w.assets.map((id) => {
            const asset = withdrawalAsset(id);
            return { id, name: asset.name, network: asset.network, feeUsd };
          }),
          payoutProvider: w.payoutProvider,
          withdrawalFeeUsd: feeUsd,
          minWithdrawalUsd: MIN_WITHDRAWAL_USD,
          withdrawalDailyLimitUsd: centsToUsd(w.dailyLimitCents),
        };
      },
    });
  };
