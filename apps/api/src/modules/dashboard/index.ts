/** What the composition root (app.ts) uses of dashboard: its routes. */
export { dashboardRoutes } from './dashboard.routes';
