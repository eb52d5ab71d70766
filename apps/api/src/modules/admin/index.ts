/** What the composition root (app.ts) uses of admin: its routes. */
export { adminStatsRoutes } from './admin-stats.routes';
export { adminTransactionsRoutes } from './admin-transactions.routes';
