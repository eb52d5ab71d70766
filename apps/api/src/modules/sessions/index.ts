/**
 * What other modules may use of sessions: who the caller is (the session a bearer token opens, requireAuth), what
 * the admin role opens, and ending a member's sessions. Below auth and users, which both need it.
 */
export { assertAdminTwoFactor, opensAsAdmin } from './admin-role';
export { requireAuth } from './request-auth';
export {
  createSession,
  listSessions,
  resolveSession,
  revokeOtherSessions,
  revokeOwnSession,
  revokeSession,
  revokeUserSessions,
  type ResolvedSession,
} from './session.service';
