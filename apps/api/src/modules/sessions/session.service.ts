import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { messages, UUID_PATTERN, type Session } from '@terrafund/contracts';
import { preparedStatement, type Executor } from '../../db/client';
import { sessions, users, type UserRow } from '../../db/schema';
import { randomToken } from '../../lib/crypto';
import type { Deps, RequestMeta } from '../../deps';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../audit';

/**
 * A session's last use is written at most this often, not on every request: fine enough for the admins'
 * 30-minute idle limit (a session can end at most this much early), cheap enough for every other request.
 */
const LAST_SEEN_RESOLUTION_MS = 60_000;

type SessionTtl = Deps['config']['sessionTtl'];

/** How long a session may stay unused: 30 minutes for an admin, else 12 hours, or 7 days remembered. */
function idleLimitSeconds(ttl: SessionTtl, session: { remember: boolean }, role: UserRow['role']) {
  if (role === 'admin') return ttl.admin;
  return session.remember ? ttl.remembered : ttl.default;
}

/**
 * Issues a session and the bearer token that names it: `<session id>.<32 random bytes>`. Only the HMAC of
 * the random part is stored, so the token cannot be rebuilt from the database.
 */
export async function createSession(
  tx: Executor,
  deps: Pick<Deps, 'clock' | 'secrets' | 'config'>,
  input: { userId: string; remember: boolean; meta: RequestMeta },
): Promise<string> {
  const secret = randomToken(32);
  const now = deps.clock.now();
  // The idle limit is checked on use (resolveSession); expires_at is the cap however busy the session is.
  const ttl = deps.config.sessionTtl.absolute;
  const [session] = await tx
    .insert(sessions)
    .values({
      userId: input.userId,
      tokenHash: deps.secrets.hash(secret),
      remember: input.remember,
      userAgent: input.meta.userAgent?.slice(0, 300),
      ipAddress: input.meta.ip,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    })
    .returning({ id: sessions.id });
  return `${session!.id}.${secret}`;
}

const TOKEN_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

export type ResolvedSession = { sessionId: string; user: UserRow };

/** The live session a token names, with its user; null for anything else, an idle session included. */
/** The live session with this id and its user, on every signed-in request. */
const liveSession = preparedStatement((db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        isNull(users.deletedAt),
      ),
    )
    .limit(1)
    .prepare('live_session'),
);

export async function resolveSession(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets' | 'config'>,
  token: string,
): Promise<ResolvedSession | null> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, sessionId, secret] = match as unknown as [string, string, string];
  const now = deps.clock.now();
  const [row] = await liveSession(deps.db).execute({ sessionId, now: now.toISOString() });
  if (!row || !deps.secrets.matches(secret, row.session.tokenHash)) return null;
  const idleMs = now.getTime() - row.session.lastSeenAt.getTime();
  if (idleMs >= idleLimitSeconds(deps.config.sessionTtl, row.session, row.user.role) * 1000) return null;
  if (idleMs >= LAST_SEEN_RESOLUTION_MS) {
    await deps.db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, now)));
  }
  return { sessionId, user: row.user };
}

export async function revokeSession(tx: Executor, deps: Pick<Deps, 'clock'>, sessionId: string) {
  await tx
    .update(sessions)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of a user, or every one but `keepSessionId`. */
export async function revokeUserSessions(
  tx: Executor,
  deps: Pick<Deps, 'clock'>,
  userId: string,
  keepSessionId?: string,
) {
  await tx
    .update(sessions)
    .set({ revokedAt: deps.clock.now() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    );
}

/**
 * GET /api/users/sessions: the caller's live sessions, newest first. A session past its idle limit is not
 * live either, though its row is not yet marked.
 */
export async function listSessions(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  auth: { sessionId: string; user: UserRow },
): Promise<Session[]> {
  const now = deps.clock.now();
  const rows = await deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, auth.user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  return rows
    .filter((row) => now.getTime() - row.lastSeenAt.getTime() < idleLimitSeconds(deps.config.sessionTtl, row, auth.user.role) * 1000)
    .map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      userAgent: row.userAgent,
      current: row.id === auth.sessionId,
    }));
}

/**
 * DELETE /api/users/sessions/:id: ends one of the caller's own sessions at once. Someone else's session, an
 * ended one and a malformed id are all the same 404: nothing tells whether another member's id exists.
 */
export async function revokeOwnSession(deps: Pick<Deps, 'db' | 'clock'>, auth: { sessionId: string; user: UserRow }, id: string) {
  if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', messages.sessions.notFound);
  await deps.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(sessions)
      .set({ revokedAt: deps.clock.now() })
      .where(and(eq(sessions.id, id.toLowerCase()), eq(sessions.userId, auth.user.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id, userAgent: sessions.userAgent });
    if (!revoked) throw new AppError('NOT_FOUND', messages.sessions.notFound);
    await recordAudit(tx, deps, {
      actorId: auth.user.id,
      action: 'session.revoked',
      targetType: 'session',
      targetId: revoked.id,
      before: null,
      after: { userId: auth.user.id, current: revoked.id === auth.sessionId, userAgent: revoked.userAgent },
    });
  });
}

/** DELETE /api/users/sessions: "Sign out everywhere else", every live session but the caller's own. */
export async function revokeOtherSessions(deps: Pick<Deps, 'db' | 'clock'>, auth: { sessionId: string; user: UserRow }) {
  await deps.db.transaction(async (tx) => {
    const revoked = await tx
      .update(sessions)
      .set({ revokedAt: deps.clock.now() })
      .where(and(eq(sessions.userId, auth.user.id), isNull(sessions.revokedAt), ne(sessions.id, auth.sessionId)))
      .returning({ id: sessions.id, userAgent: sessions.userAgent });
    for (const session of revoked) {
      await recordAudit(tx, deps, {
        actorId: auth.user.id,
        action: 'session.revoked',
        targetType: 'session',
        targetId: session.id,
        before: null,
        after: { userId: auth.user.id, current: false, userAgent: session.userAgent },
      });
    }
  });
}
