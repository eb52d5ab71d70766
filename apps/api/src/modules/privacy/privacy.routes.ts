import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  closeAccountBody,
  dataExportBody,
  dataExportListSchema,
  dataExportParams,
  dataExportSchema,
  errorResponse,
  messageResponse,
  notificationPreferencesSchema,
  unsubscribeBody,
  unsubscribeQuery,
  unsubscribeResponse,
  updateNotificationPreferencesBody,
} from '@terrafund/contracts';
import { requireAuth } from '../sessions';
import { verifyStepUp } from '../auth';
import { moduleRoutes } from '../../lib/route-schemas';
import { closeOwnAccount } from './close-account.service';
import { downloadDataExport, listDataExports, requestDataExport, type ExportDeps } from './data-export.service';
import { getPreferences, unsubscribe, updatePreferences } from './preferences.service';

/**
 * The privacy rights of issue 34 (docs/product.md): the data export, closing the account, the mail preferences and
 * the unsubscribe page's call. The one-click address mail clients post to is oneClickUnsubscribeRoutes, outside /api.
 */
export const privacyRoutes = moduleRoutes(['privacy'], (app, deps: ExportDeps, schemas) => {
  app.post('/users/data-export', {
    ...schemas.user(
      {
        description:
          'Starts an export of the caller\'s data (step-up: `password`, or `code` with 2FA on): 202 with the pending export, ' +
          'ready within seconds (the member is mailed and notified). One a day: 429 with Retry-After otherwise.',
        body: dataExportBody,
      },
      { 202: dataExportSchema },
    ),
    handler: async (request, reply) => {
      const { user } = requireAuth(request);
      await verifyStepUp(deps, user, request.ip, request.body);
      const created = await requestDataExport(deps, user);
      return reply.code(202).send(created);
    },
  });

  app.get('/users/data-export', {
    ...schemas.user({ description: "The caller's data exports whose download link still works, newest first." }, { 200: dataExportListSchema }),
    handler: async (request) => listDataExports(deps, requireAuth(request).user.id),
  });

  app.get('/users/data-export/:id/download', {
    ...schemas.user(
      {
        description:
          "A ready export as a ZIP attachment, for its owner only (anyone else's is 404); 409 while it is being prepared, " +
          '410 once its 7 days are over. Audited as data.exported.',
        params: dataExportParams,
        produces: ['application/zip'],
      },
      { 200: z.unknown().describe('The export, application/zip'), 410: errorResponse },
    ),
    handler: async (request, reply) => {
      const { bytes, fileName } = await downloadDataExport(deps, requireAuth(request).user, request.params.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(bytes);
    },
  });

  app.post('/users/close', {
    ...schemas.user(
      {
        description:
          'Closes the caller\'s account (step-up, and `confirm: "CLOSE"`). 409 with the reason while the wallet holds at least ' +
          'the minimum withdrawal, a withdrawal is pending, an investment is in a project not yet ended, or a payment is ' +
          'being settled or held. Every session ends; the address can register again.',
        body: closeAccountBody,
      },
      { 200: messageResponse },
    ),
    handler: async (request) => closeOwnAccount(deps, requireAuth(request).user, request.ip, request.body),
  });

  app.get('/users/notification-preferences', {
    ...schemas.user({ description: 'Which optional mail the caller gets, per kind.' }, { 200: notificationPreferencesSchema }),
    handler: async (request) => getPreferences(deps, requireAuth(request).user.id),
  });

  app.patch('/users/notification-preferences', {
    ...schemas.user(
      { description: 'Changes any of the kinds; answers the whole set.', body: updateNotificationPreferencesBody },
      { 200: notificationPreferencesSchema },
    ),
    handler: async (request) => updatePreferences(deps, requireAuth(request).user.id, request.body),
  });

  app.post('/unsubscribe', {
    ...schemas.public(
      { description: "The unsubscribe page's button: turns off the kind of mail the link's token names, without a sign-in.", body: unsubscribeBody },
      { 200: unsubscribeResponse },
    ),
    handler: async (request) => unsubscribe(deps, request.body.token),
  });
});

/** A one-click unsubscribe form is a few dozen bytes; anything much larger is not one. */
const FORM_BODY_LIMIT = 2048;

/**
 * `POST /unsubscribe?token=…` (RFC 8058): what a mail client posts, form-encoded `List-Unsubscribe=One-Click`, to the
 * List-Unsubscribe address of an optional mail. No sign-in, no cookies; the token is the authority. `GET /unsubscribe`
 * is the web app's page, which asks before calling POST /api/unsubscribe.
 */
export const oneClickUnsubscribeRoutes = (deps: ExportDeps) => async (instance: FastifyInstance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  // RFC 8058 allows multipart/form-data too, and some clients send other types: the token is in the address, so the
  // body (List-Unsubscribe=One-Click) is read and set aside whatever its type, within the same small limit.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, _body, done) => done(null, {}));
  app.post('/unsubscribe', {
    config: { access: 'public' },
    schema: {
      tags: ['privacy'],
      description: 'RFC 8058 one-click unsubscribe: a POST of `List-Unsubscribe=One-Click` to the link of an optional mail turns that kind off.',
      querystring: unsubscribeQuery,
      body: z.record(z.string(), z.unknown()).optional(),
      response: { 200: unsubscribeResponse, 400: errorResponse },
    },
    handler: async (request) => unsubscribe(deps, request.query.token),
  });
};
