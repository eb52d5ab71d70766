import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app';
import type { DatabaseHandle } from '../db/client';
import { AppError } from './app-error';
import { isPgError, PG, pgErrorOf, toDomainError } from './pg-error';

/** Real refusals of the test database (PGlite, or PostgreSQL under TEST_DB=postgres), through Drizzle. */
describe('pg-error', () => {
  let database: DatabaseHandle;
  const refusal = async (query: ReturnType<typeof sql>) => {
    try {
      await database.db.execute(query);
    } catch (error) {
      return error;
    }
    throw new Error('the statement was not refused');
  };
  const insertUser = (email: string) =>
    sql`insert into users (email, first_name, last_name, password_hash, created_at, updated_at)
        values (${email}, 'Test', 'Member', 'x', now(), now())`;

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(insertUser('taken@example.com'));
  });
  afterAll(() => database.close());

  it('reads the SQLSTATE and constraint of a unique violation', async () => {
    const error = await refusal(insertUser('taken@example.com'));
    expect(pgErrorOf(error)).toEqual({ code: PG.uniqueViolation, constraint: 'users_email_unique' });
    expect(isPgError(error, PG.uniqueViolation)).toBe(true);
    expect(isPgError(error, PG.uniqueViolation, ['users_email_unique'])).toBe(true);
    expect(isPgError(error, PG.uniqueViolation, ['another_unique'])).toBe(false);
    expect(isPgError(error, PG.checkViolation)).toBe(false);
  });

  it('reads a foreign key violation', async () => {
    const error = await refusal(
      sql`insert into sessions (user_id, token_hash, expires_at)
          values ('00000000-0000-4000-8000-000000000000', 'h', now())`,
    );
    expect(pgErrorOf(error)).toEqual({ code: PG.foreignKeyViolation, constraint: 'sessions_user_id_users_id_fk' });
  });

  it('maps a check violation to the domain error of its rule, and leaves any other error as it is', async () => {
    const error = await refusal(sql`update users set email = 'UPPER@example.com' where email = 'taken@example.com'`);
    expect(pgErrorOf(error)).toEqual({ code: PG.checkViolation, constraint: 'users_email_lowercase' });
    const mapped = toDomainError(error, [
      { code: PG.uniqueViolation, error: () => new AppError('CONFLICT', 'not this one') },
      { code: PG.checkViolation, constraints: ['users_email_lowercase'], error: () => new AppError('VALIDATION_ERROR', 'lower case') },
    ]);
    expect(mapped).toBeInstanceOf(AppError);
    expect((mapped as AppError).message).toBe('lower case');
    expect(toDomainError(error, [{ code: PG.checkViolation, constraints: ['other'], error: () => new AppError('CONFLICT', 'x') }])).toBe(error);
    const plain = new Error('not from the database');
    expect(pgErrorOf(plain)).toBeUndefined();
    expect(toDomainError(plain, [{ code: PG.checkViolation, error: () => new AppError('CONFLICT', 'x') }])).toBe(plain);
  });
});
