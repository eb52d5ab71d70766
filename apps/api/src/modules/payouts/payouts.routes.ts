import { z } from 'zod';
import type { Deps } from '../../deps';
import { moduleRoutes } from '../../lib/route-schemas';
import { runMembershipEnds } from '../memberships';
import { mailDividendsPaid } from '../privacy';
import { runPayouts } from './payouts.service';

/** The scheduler's payout job, on demand (docs/product.md §9.1 General). Paying twice is impossible, so it is safe to press. */
export const payoutRoutes = moduleRoutes(['admin'], (app, deps: Deps, schemas) => {
  app.post('/admin/payouts/run', {
    ...schemas.admin(
      {
        description:
          'Pays every business day that is due and not yet paid, and answers what it paid; then ends the memberships whose end has passed and sends the end mails that are due (once each).',
      },
      {
        200: z.object({
          days: z.array(z.string()),
          paid: z.number(),
          amount: z.number(),
          /** Memberships marked ended, and end mails queued, by this run. */
          membershipsEnded: z.number(),
          remindersSent: z.number(),
        }),
      },
    ),
    handler: async () => {
      const result = await runPayouts(deps.db, { clock: deps.clock, payoutTime: deps.config.payoutTime });
      const ends = await runMembershipEnds(deps);
      // One "Dividends paid" mail per member this run paid, for those who opted in (issue 34).
      await mailDividendsPaid(deps);
      return { days: result.days, paid: result.paid, amount: result.amountCents / 100, membershipsEnded: ends.ended, remindersSent: ends.reminders };
    },
  });
});
