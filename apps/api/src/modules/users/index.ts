/** What other modules may use of users. */
export { publicUser, publicUsers } from './public-user';
export { normalizeEmail, updateProfile } from './users.service';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { userAdminRoutes } from './users.routes';
