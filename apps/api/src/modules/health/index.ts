/** What the composition root (app.ts, server.ts) and the startup gate (plugins/startup-gate.ts) use of health. */
export { healthRoutes } from './health.routes';
export { readinessChecks, readyState, type StartupState } from './readiness';
