import { z } from 'zod';
import {
  createTransactionBody,
  depositResponseSchema,
  errorResponse,
  idParam,
  ownTransactionsQuery,
  planSchema,
  transactionDetailSchema,
  transactionSchema,
  withdrawalDecisionBody,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../../plugins/access';
import { moduleRoutes } from '../../plugins/responses';
import { createDeposit } from '../payments';
import * as service from './transactions.service';

/** Plans, deposits, the member's transactions and withdrawals, and the admin's decision on them (docs/product.md §5.3 Buying a pack). */
export const transactionRoutes = moduleRoutes(['transactions'], (app, deps: Deps, schemas) => {

  app.get('/plans', {
    config: { access: 'public' },
    schema: { tags: ['plans'], response: { 200: z.array(planSchema) } },
    handler: async () => service.listPlans(),
  });

  app.post('/transactions', {
    ...schemas.user(
      {
        description:
          '`{type:"deposit", plan}` starts a plan purchase (no KYC needed): a pending deposit for the plan\'s price and an ' +
          'invoice at the payment provider, answered as `{transaction, payment_url}`; 503 when the provider does not answer. ' +
          '`{type:"withdrawal", amount, walletAddress}` requests a withdrawal (approved KYC, at least 25, at most the ' +
          'balance); the amount is held at once. Other fields the client sends (`_id`, `status`, `userId`, `amount` of a ' +
          'deposit, `description`) are ignored.',
        body: createTransactionBody,
      },
      {
        // Deposit first: a withdrawal's answer has no payment_url, so it can only match the second.
        201: z.union([depositResponseSchema, z.object({ transaction: transactionSchema })]),
        503: errorResponse,
      },
    ),
    handler: async (request, reply) => {
      const { user } = requireAuth(request);
      const body = request.body;
      if (body.type === 'deposit') return reply.status(201).send(await createDeposit(deps, user, body.plan));
      return reply.status(201).send({ transaction: await service.requestWithdrawal(deps, user, body) });
    },
  });

  app.get('/transactions', {
    ...schemas.user(
      {
        description:
          'The caller\'s own transactions, newest first, `limit` a page (default 50, at most 100; more is a 400). When a ' +
          'next page exists its cursor is in the `X-Next-Cursor` header (absent on the last page); `cursor` takes it back. ' +
          'A cursor that is not one of ours is a 400 "Invalid page cursor".',
        querystring: ownTransactionsQuery,
      },
      { 200: z.array(transactionSchema) },
    ),
    handler: async (request, reply) => {
      const page = await service.listOwnTransactions(deps, requireAuth(request).user, request.query);
      if (page.next) reply.header('x-next-cursor', page.next);
      return page.items;
    },
  });

  app.get('/transactions/:id', {
    ...schemas.user(
      {
        description: 'One of the caller\'s transactions (404 for anyone else\'s); a withdrawal carries its `timeline`.',
        params: idParam,
      },
      { 200: transactionDetailSchema },
    ),
    handler: async (request) => service.getTransaction(deps, requireAuth(request).user, request.params.id),
  });

  const decide = {
    config: { access: 'admin' as const },
    schema: schemas.signedIn(
      {
        description: 'Completes or fails a pending withdrawal; failing it returns the amount to the wallet.',
        params: idParam,
        body: withdrawalDecisionBody,
      },
      { 200: transactionSchema },
    ),
  };
  app.patch('/transactions/:id/status', {
    ...decide,
    handler: async (request) => service.decideWithdrawal(deps, requireAuth(request).user, request.params.id, request.body),
  });
  app.post('/admin/transactions/withdrawal/:id', {
    ...decide,
    handler: async (request) => service.decideWithdrawal(deps, requireAuth(request).user, request.params.id, request.body),
  });
});
