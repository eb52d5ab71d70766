import { and, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import { messages, UUID_PATTERN, type ListUsersQuery, type adminUpdateUserBody, type updateProfileBody, type listUsersQuery } from '@terrafund/contracts';
import type { z } from 'zod';
import { users, type UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { revokeUserSessions } from '../sessions';
import { auditTrail, recordAudit } from '../audit';
import { publicUser, publicUsers } from './public-user';
import { recentTransactionsOf } from '../transactions';

/** An e-mail address as it is stored and looked up: the users table's one spelling of it. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A closed account (modules/privacy) is kept for the records the law asks for: no admin change, no reopening (409). */
function assertNotClosed(row: Pick<UserRow, 'closedAt'>) {
  if (row.closedAt) throw new AppError('CONFLICT', messages.privacy.accountClosed);
}

export async function updateProfile(deps: Deps, user: UserRow, body: z.output<typeof updateProfileBody>) {
  // The spec's client sends the e-mail along; it is read-only, so only the same address is accepted.
  if (body.email !== undefined && normalizeEmail(body.email) !== user.email) {
    throw new AppError('VALIDATION_ERROR', messages.auth.emailNotChangeable, {
      fields: { email: messages.auth.emailNotChangeable },
    });
  }
  const [updated] = await deps.db
    .update(users)
    .set({
      firstName: body.firstName,
      lastName: body.lastName,
      phone: body.phone,
      locale: body.locale,
      updatedAt: deps.clock.now(),
    })
    .where(eq(users.id, user.id))
    .returning();
  return publicUser(deps, updated!);
}

/** Escapes LIKE wildcards so a search for "50%" means the characters, not a pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listUsers(deps: Deps, query: z.output<typeof listUsersQuery>) {
  const filters: (SQL | undefined)[] = [isNull(users.deletedAt)];
  if (query.search) {
    const pattern = likePattern(query.search);
    filters.push(or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern)));
  }
  if (query.role) filters.push(eq(users.role, query.role));
  if (query.kycStatus) filters.push(eq(users.kycStatus, query.kycStatus));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    deps.db.select({ value: count() }).from(users).where(where),
  ]);
  return { users: await publicUsers(deps, rows), total: total?.value ?? 0 };
}
export type { ListUsersQuery };

async function findLiveUser(deps: Deps, id: string) {
  if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', messages.users.notFound);
  const [row] = await deps.db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', messages.users.notFound);
  return row;
}

export async function getUser(deps: Deps, id: string) {
  return publicUser(deps, await findLiveUser(deps, id));
}

export async function adminUpdateUser(
  deps: Deps,
  actor: UserRow,
  id: string,
  body: z.output<typeof adminUpdateUserBody>,
) {
  const target = await findLiveUser(deps, id);
  assertNotClosed(target);
  if (body.role !== undefined && body.role !== target.role && target.id === actor.id) {
    throw new AppError('CONFLICT', messages.users.cannotChangeOwnRole);
  }
  // Admin rights never ride on a member's own password and sessions: the operator promotes from the command
  // line, which replaces both (modules/auth/admin-bootstrap.ts). Demotion stays here.
  if (body.role === 'admin' && target.role !== 'admin') {
    throw new AppError('FORBIDDEN', messages.users.promoteWithCli);
  }
  const changes = { firstName: body.firstName, lastName: body.lastName, phone: body.phone, role: body.role };
  const updated = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...changes, updatedAt: deps.clock.now() })
      .where(eq(users.id, target.id))
      .returning();
    const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter(
      (key) => changes[key] !== undefined && changes[key] !== target[key],
    );
    if (changed.length > 0) {
      await recordAudit(tx, deps, {
        actorId: actor.id,
        action: 'user.updated',
        targetType: 'user',
        targetId: target.id,
        before: Object.fromEntries(changed.map((key) => [key, target[key]])),
        after: Object.fromEntries(changed.map((key) => [key, row![key]])),
      });
    }
    return row!;
  });
  return publicUser(deps, updated);
}

/** Soft delete: the account can no longer sign in and disappears from lists; its history stays. */
export async function deleteUser(deps: Deps, actor: UserRow, id: string) {
  if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', messages.users.notFound);
  if (id === actor.id) throw new AppError('CONFLICT', messages.users.cannotDeleteSelf);
  await deps.db.transaction(async (tx) => {
    const [target] = await tx.select({ closedAt: users.closedAt }).from(users).where(eq(users.id, id)).limit(1);
    if (target) assertNotClosed(target);
    const [deleted] = await tx
      .update(users)
      .set({ deletedAt: deps.clock.now(), updatedAt: deps.clock.now() })
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .returning({ id: users.id });
    if (!deleted) throw new AppError('NOT_FOUND', messages.users.notFound);
    await revokeUserSessions(tx, deps, id);
    await recordAudit(tx, deps, {
      actorId: actor.id,
      action: 'user.deleted',
      targetType: 'user',
      targetId: id,
      before: { deleted: false },
      after: { deleted: true },
    });
  });
  return { message: messages.users.deleted };
}

/** The admin's view of one user: profile with KYC, recent transactions and the audit trail. */
export async function adminUserDetail(deps: Deps, id: string) {
  const user = await getUser(deps, id);
  const [transactions, auditLog] = await Promise.all([recentTransactionsOf(deps, user._id), auditTrail(deps, 'user', user._id)]);
  return { user, transactions, auditLog };
}
