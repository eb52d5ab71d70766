/** What other modules may use of kyc. */
export { kycInfoFor } from './kyc.service';
