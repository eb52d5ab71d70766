/** What other modules may use of transactions. */
export { getTransaction, listOwnTransactions, listPlans, recentTransactionsOf, toTransactionDto } from './transactions.service';
export { statementLines } from './statement.service';
// The composition root's (app.ts, server.ts, the CLI, jobs): its routes.
export { statementRoutes } from './statement.routes';
