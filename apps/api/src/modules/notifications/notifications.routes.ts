import { markNotificationsReadBody, notificationsPageSchema, notificationsQuery, unreadCountSchema } from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { moduleRoutes } from '../../lib/route-schemas';
import * as service from './notifications.service';

/** The bell: the caller's own notifications and marking them read. */
export const notificationRoutes = moduleRoutes(['notifications'], (app, deps: Deps, schemas) => {

  app.get('/notifications', {
    ...schemas.user(
      {
        description:
          'The caller\'s notifications, newest first, 20 a page, with the number still unread. `nextCursor` (null on the ' +
          'last page) goes back as `?cursor=` for the next page; a cursor the server did not write is a 400.',
        querystring: notificationsQuery,
      },
      { 200: notificationsPageSchema },
    ),
    handler: async (request) => service.listNotifications(deps, requireAuth(request).user.id, request.query.cursor),
  });

  app.post('/notifications/read', {
    ...schemas.user(
      {
        description:
          '`{ids: [...]}` marks those of the caller\'s notifications read (ids that are not the caller\'s are ignored); ' +
          '`{all: true}` marks every one. Answers the number still unread.',
        body: markNotificationsReadBody,
      },
      { 200: unreadCountSchema },
    ),
    handler: async (request) => service.markRead(deps, requireAuth(request).user.id, request.body),
  });
});
