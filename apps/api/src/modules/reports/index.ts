/** What the CLI and the tests may use of reports: checks that read across several modules, composed above them. */
export { checkLedger } from './ledger-report';
