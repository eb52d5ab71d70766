import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, packPaymentSchema } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { requireAuth } from '../sessions';
import { perAddress } from '../../lib/route-limits';
import { routeSchemas } from '../../lib/route-schemas';
import { DOCUMENT_HEADERS } from '../../lib/security-headers';
import type { NotificationHeaders } from './wire';
import { listPackPayments } from './pack-payments.service';
import { checkoutPolicy, renderCheckoutPage } from './sandbox-checkout';
import { CHECKOUT_KEY_PARAM, FORM_TOKEN_FIELD } from './sandbox.provider';
import {
  closeSandboxInvoice,
  handleNotification,
  INVALID_SIGNATURE,
  PROVIDER_NAMES,
  returnPage,
  returnPageUrl,
  sandboxInvoice,
} from './payments.service';

/** Provider notifications are small (BTCPay's are a few hundred bytes); anything near this is not one. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;
/** The sandbox checkout's forms carry one field, the CSRF token. */
const FORM_BODY_LIMIT = 1024;

const tags = ['payments'];
const schemas = routeSchemas(tags);
const invoiceParams = z.object({ invoiceId: z.string() });

/**
 * What a provider's notification is to the payouts (modules/withdrawals handlePayoutNotification): handed in by the
 * composition root, since withdrawals builds its payout adapters on this module's provider helpers.
 */
type PayoutNotifications = (deps: Deps, provider: string, body: Buffer, headers: NotificationHeaders) => Promise<'payout' | 'invalid' | 'other'>;

/**
 * Provider notifications (webhooks), the return from a provider's checkout, and the built-in sandbox's own
 * checkout page (docs/product.md §5.4 Payment providers; docs/product.md §9.1 General, §5.3 Buying a pack).
 */
export const paymentRoutes =
  (deps: Deps & { payoutNotification: PayoutNotifications }): FastifyPluginAsyncZod =>
  async (app) => {
    // Webhooks live in a plugin of their own whose JSON "parser" keeps the bytes: the signature covers the
    // body exactly as sent (BTCPay's is pretty-printed), which a parsed and re-serialised body is not.
    await app.register(async (instance) => {
      const webhooks = instance.withTypeProvider<ZodTypeProvider>();
      webhooks.removeContentTypeParser('application/json');
      webhooks.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
        done(null, body),
      );
      for (const provider of PROVIDER_NAMES) {
        webhooks.post(`/payments/webhooks/${provider}`, {
          config: { access: 'provider' },
          schema: {
            tags,
            description:
              `Signed notifications from ${provider === 'sandbox' ? 'the built-in sandbox' : provider} (docs/product.md §5.4 Payment providers): the raw JSON ` +
              'body as the provider signed it: payments (PAYMENT_PROVIDER) and payouts (PAYOUT_PROVIDER; a payout is read again ' +
              'at the provider, never taken from the body). Open only for a configured provider (404 otherwise); a bad ' +
              'signature is 403; a notification we do not act on is acknowledged; 503 asks for a redelivery.',
            response: { 200: z.object({ received: z.literal(true) }), 403: errorResponse, 404: errorResponse, 503: errorResponse },
          },
          handler: async (request) => {
            const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
            // Payout notifications (PAYOUT_PROVIDER) share the provider's webhook address with its payment ones.
            const payout = await deps.payoutNotification(deps, provider, body, request.headers);
            if (payout === 'payout') return { received: true as const };
            if (payout === 'invalid' && deps.paymentProvider.name !== provider) throw new AppError('FORBIDDEN', INVALID_SIGNATURE);
            await handleNotification(deps, provider, body, request.headers);
            return { received: true as const };
          },
        });
      }
    });

    app.get('/payments', {
      ...schemas.user(
        {
          description:
            'The caller\'s own pack payments, newest first (the wallet\'s Deposit tab): pack, amount, date and status ' +
            '(`pending`, `expired`, `held`, `settled`, `failed`); a pending one carries its checkout in `payment_url`.',
        },
        { 200: z.array(packPaymentSchema) },
      ),
      handler: async (request) => listPackPayments(deps, requireAuth(request).user.id),
    });

    app.get('/payments/return/:provider', {
      // Anyone may call it, and a pending invoice costs a request to the provider's API: limited per client.
      config: { access: 'public', rateLimit: perAddress(deps.config.rateLimits.paymentReturnPerAddress) },
      schema: {
        tags,
        description:
          "Where a provider's checkout sends the member back: redirects (302) to /wallet/payment/success or " +
          '/wallet/payment/timeout after reading the invoice. It settles nothing. Limited per client address (429 with ' +
          'Retry-After past 30 a minute).',
        params: z.object({ provider: z.string() }),
        querystring: z.object({ orderId: z.string().max(100).optional() }),
      },
      // A mangled return address still deserves a page, not a JSON error.
      attachValidation: true,
      handler: async (request, reply) => {
        const page = request.validationError ? 'timeout' : await returnPage(deps, request.params.provider, request.query.orderId);
        return reply.redirect(returnPageUrl(deps.config.publicUrl, page), 302);
      },
    });

    await app.register(async (instance) => {
      const sandbox = instance.withTypeProvider<ZodTypeProvider>();
      // A browser submits the checkout's forms form-encoded; the one field read is the CSRF token.
      sandbox.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      const checkoutQuery = z.object({ [CHECKOUT_KEY_PARAM]: z.string().max(200).optional() });

      sandbox.get('/payments/sandbox/checkout/:invoiceId', {
        config: { access: 'public' },
        schema: {
          tags,
          description:
            'The sandbox provider\'s checkout page (HTML; only when PAYMENT_PROVIDER=sandbox): "Pay now" or "Let it expire". ' +
            'Only the payment_url opens it: its `key` is the checkout\'s capability (404 without it).',
          params: invoiceParams,
          querystring: checkoutQuery,
        },
        handler: async (request, reply) => {
          const key = request.query[CHECKOUT_KEY_PARAM];
          const { invoice, formToken } = await sandboxInvoice(deps, request.params.invoiceId, key);
          return (
            reply
              .headers(DOCUMENT_HEADERS)
              .header('content-type', 'text/html; charset=utf-8')
              .header('content-security-policy', checkoutPolicy(deps.config.publicUrl))
              // The app's no-referrer would make the browser send `Origin: null` with the forms, which the
              // origin check refuses; same-origin tells our own server where the form came from, nobody else.
              .header('referrer-policy', 'same-origin')
              .header('cache-control', 'no-store')
              .send(renderCheckoutPage(invoice, { key: key!, formToken }))
          );
        },
      });

      for (const action of ['pay', 'expire'] as const) {
        sandbox.post(`/payments/sandbox/checkout/:invoiceId/${action}`, {
          config: { access: 'public' },
          schema: {
            tags,
            description:
              `${action === 'pay' ? 'Pays' : 'Expires'} a sandbox invoice (409 when already paid or expired), delivers the ` +
              "signed notification to our own webhook, and redirects (303) to the invoice's return address. Needs the " +
              'checkout\'s `key` (404 otherwise), a form sent from our own site (`Origin`, else `Referer`; 403 otherwise) ' +
              'and the page\'s CSRF token in the `csrf` field (403 otherwise).',
            params: invoiceParams,
            querystring: checkoutQuery,
          },
          handler: async (request, reply) => {
            const body = (request.body ?? {}) as Record<string, unknown>;
            const token = body[FORM_TOKEN_FIELD];
            const { notification, returnUrl } = await closeSandboxInvoice(deps, request.params.invoiceId, action, {
              key: request.query[CHECKOUT_KEY_PARAM],
              token: typeof token === 'string' ? token : undefined,
              sender: {
                origin: request.headers.origin,
                referer: request.headers.referer,
                allowed: [new URL(deps.config.publicUrl).origin, `${request.protocol}://${request.host}`],
              },
            });
            // Through the real webhook, signature and all, exactly as a provider's delivery would arrive.
            const delivered = await app.inject({
              method: 'POST',
              url: '/api/payments/webhooks/sandbox',
              headers: notification.headers,
              payload: notification.body,
            });
            if (delivered.statusCode !== 200) {
              // The sandbox invoice is closed; the reconciler reads it and applies it later.
              request.log.error({ status: delivered.statusCode, body: delivered.body }, 'sandbox notification was not accepted');
            }
            return reply.redirect(returnUrl, 303);
          },
        });
      }
    });
  };
