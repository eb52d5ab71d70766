/** What other modules may use of auth. */
export { normalizeEmail } from './auth.service';
export { revokeUserSessions } from './session.service';
