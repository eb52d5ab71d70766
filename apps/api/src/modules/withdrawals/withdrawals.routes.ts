import { z } from 'zod';
import {
  adminTransactionDetailSchema,
  confirmWithdrawalBody,
  idParam,
  transactionSchema,
  withdrawalAddressListSchema,
  withdrawalDecisionBody,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { perAddress } from '../../lib/route-limits';
import { moduleRoutes } from '../../lib/route-schemas';
import * as service from './withdrawals.service';

/**
 * Money out (issue 32): an admin's decision on a withdrawal (under either of its two names), the mailed
 * confirmation of a new address, the member's cancellation and address book, and the admin's detail view.
 */
export const withdrawalRoutes = moduleRoutes(['transactions'], (app, deps: Deps, schemas) => {
  const decide = {
    config: { access: 'admin' as const },
    schema: schemas.signedIn(
      {
        description:
          '`{status: "failed", reason?}` refuses a pending withdrawal (the amount returns to the wallet). `{status: "completed"}` ' +
          'approves it: at or above WITHDRAWAL_DUAL_APPROVAL_USD the first approval answers 202 with `approvals` and sends ' +
          'nothing, and a second admin\'s approval sends it; enough approvals create the payout at the provider (200, stage ' +
          '`sent`, or `waiting_for_provider` while the provider does not answer). With PAYOUT_PROVIDER=manual the approval ' +
          'completes it and needs `txHash` of the coin\'s shape. 409 while the member has not confirmed a new address, once ' +
          'handed to the provider or decided, and for the same admin approving twice.',
        params: idParam,
        body: withdrawalDecisionBody,
      },
      { 200: transactionSchema, 202: transactionSchema },
    ),
  };
  app.patch('/transactions/:id/status', {
    ...decide,
    handler: async (request, reply) => {
      const decision = await service.decideWithdrawal(deps, requireAuth(request).user, request.params.id, request.body);
      return reply.status(decision.status).send(decision.transaction);
    },
  });
  app.post('/admin/transactions/withdrawal/:id', {
    ...decide,
    handler: async (request, reply) => {
      const decision = await service.decideWithdrawal(deps, requireAuth(request).user, request.params.id, request.body);
      return reply.status(decision.status).send(decision.transaction);
    },
  });

  app.get('/admin/transactions/:id', {
    ...schemas.admin(
      {
        description:
          'One transaction as an admin follows it: for a withdrawal its coin, network, address, approvals, timeline, payout ' +
          '(provider, id, state, tx hash), the provider\'s last error while waiting for it, the member, and block-explorer links.',
        params: idParam,
      },
      { 200: adminTransactionDetailSchema },
    ),
    handler: async (request) => service.adminTransactionDetail(deps, request.params.id),
  });

  app.post('/withdrawals/confirm', {
    // The token is the credential: anyone may try one, so tries are limited per client address.
    config: { access: 'public', rateLimit: perAddress(deps.config.rateLimits.resetPerAddress) },
    schema: schemas.open(
      {
        description:
          'Confirms a first withdrawal to a new address with the token of the mailed link (single use, 30 minutes): 200 with ' +
          'the transaction, now waiting for approval, and the address joins the member\'s book. A used or unknown token is a ' +
          '400; an expired one is a 400 and the withdrawal is failed, its amount back in the wallet.',
        body: confirmWithdrawalBody,
      },
      { 200: transactionSchema },
    ),
    handler: async (request) => service.confirmWithdrawal(deps, request.body.token),
  });

  app.post('/transactions/:id/cancel', {
    ...schemas.user(
      {
        description:
          'The owner cancels a pending withdrawal not yet handed to a provider: 200, status `failed`, stage `cancelled`, the ' +
          'amount back in the wallet at once. Later: 409. Anyone else\'s, unknown, or not a withdrawal: 404.',
        params: idParam,
      },
      { 200: transactionSchema },
    ),
    handler: async (request) => service.cancelWithdrawal(deps, requireAuth(request).user, request.params.id),
  });

  app.get('/users/withdrawal-addresses', {
    ...schemas.user(
      { description: 'The caller\'s confirmed withdrawal addresses, newest first: a withdrawal to one of them needs no mailed confirmation.' },
      { 200: withdrawalAddressListSchema },
    ),
    handler: async (request) => service.listWithdrawalAddresses(deps, requireAuth(request).user),
  });

  app.delete('/users/withdrawal-addresses/:id', {
    ...schemas.user(
      {
        description: 'Removes one of the caller\'s confirmed addresses (204); the next withdrawal to it needs the mail again. Anyone else\'s or unknown: 404.',
        params: idParam,
      },
      { 204: z.null() },
    ),
    handler: async (request, reply) => {
      await service.deleteWithdrawalAddress(deps, requireAuth(request).user, request.params.id);
      return reply.status(204).send(null);
    },
  });
});
