/** What other modules may use of projects. */
export { checkProjectLedger } from './invest.service';
