/** What other modules may use of kyc. */
export { kycInfoFor } from './kyc.service';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { kycRoutes } from './kyc.routes';
