/** What other modules may use of auth. */
export { verifyStepUp, type StepUp } from './step-up';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes, the admin account at boot and from the CLI.
export { authRoutes } from './auth.routes';
export { securityRoutes } from './security.routes';
export { accountRole, AdminBootstrapRefused, createAdminIfAbsent, ensureAdmin, promoteToAdmin, type AdminDeps } from './admin-bootstrap';
export { resetTwoFactor } from './two-factor.service';
