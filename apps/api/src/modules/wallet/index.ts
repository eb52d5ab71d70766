/**
 * What the composition root (app.ts) uses of wallet: the member's /plans and /transactions routes. They start a
 * deposit (modules/payments) or a withdrawal (modules/withdrawals) and list the transactions (modules/transactions)
 * with their withdrawal fields, so they sit above all three, which write and show transactions.
 */
export { transactionRoutes } from './wallet.routes';
