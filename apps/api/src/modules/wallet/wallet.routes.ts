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
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { moduleRoutes } from '../../lib/route-schemas';
import { createDeposit } from '../payments';
import { requestWithdrawal, withdrawalDetail, withWithdrawalFields } from '../withdrawals';
import * as service from '../transactions';

/** Plans, deposits and withdrawals requested, and the member's transactions (docs/product.md §5.3 Buying a pack). */
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
          '`{type:"withdrawal", amount, walletAddress, asset, password | code}` requests a withdrawal: `asset` one of ' +
          'WITHDRAWAL_ASSETS, the address checked for that coin, approved KYC, the step-up (the password, or a current 2FA ' +
          'code), at least 25, at most the balance and the daily limit; the amount is held at once. A first withdrawal to an ' +
          'address waits for the mailed confirmation link (`awaitingConfirmation: true`). Other fields the client sends (`_id`, `status`, `userId`, `amount` of a ' +
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
      return reply.status(201).send({ transaction: await requestWithdrawal(deps, user, body, request.ip) });
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
      return withWithdrawalFields(deps.db, page.items);
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
    handler: async (request) => {
      const row = await service.getTransaction(deps, requireAuth(request).user, request.params.id);
      return row.type === 'withdrawal' ? withdrawalDetail(deps, row) : service.toTransactionDto(row);
    },
  });
});
