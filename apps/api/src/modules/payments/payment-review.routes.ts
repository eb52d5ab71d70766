import { z } from 'zod';
import { heldPaymentSchema, idParam, reviewDecisionBody } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { moduleRoutes } from '../../lib/route-schemas';
import { decideHeldPayment, listHeldPayments } from './payment-review.service';

/** The admin's review of payments the settlement held (partial, late, over- or mismatched money). */
export const paymentReviewRoutes = moduleRoutes(['admin', 'payments'], (app, deps: Deps, schemas) => {

  app.get('/admin/payments/review', {
    ...schemas.admin(
      {
        description:
          'Every payment held for review (`payment_invoices.state = review`), newest first, with its deposit and member. ' +
          '`reviewReason`: `partial` (less than the price arrived), `late` (paid after the invoice expired), `over` ' +
          '(more than the price), `mismatch` (amount, currency or order not the ones we asked for).',
      },
      { 200: z.array(heldPaymentSchema) },
    ),
    handler: async () => listHeldPayments(deps),
  });

  app.post('/admin/payments/:id/review', {
    ...schemas.admin(
      {
        description:
          'Decides a held payment, once. `activate` settles it as the provider\'s "Settled" would: the deposit completes ' +
          '(even one expiry had failed), the pack activates (replacing an active one) and the member is mailed; the invoice ' +
          'becomes `settled`. `reject` fails the invoice and a still-pending deposit, moves no money (refund at the ' +
          'provider) and mails the member that support will contact them. `note` (at most 500 characters) is kept with the ' +
          'decision and in the audit log. 404 for an unknown invoice; 409 when it is not (or no longer) held.',
        params: idParam,
        body: reviewDecisionBody,
      },
      { 200: heldPaymentSchema },
    ),
    handler: async (request) => decideHeldPayment(deps, requireAuth(request).user, request.params.id, request.body),
  });
});
