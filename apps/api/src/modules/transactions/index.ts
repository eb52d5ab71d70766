/** What other modules may use of transactions. */
export { recentTransactionsOf, toTransactionDto } from './transactions.service';
