/** What other modules may use of notifications. */
export { notify } from './notifications.service';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { notificationRoutes } from './notifications.routes';
