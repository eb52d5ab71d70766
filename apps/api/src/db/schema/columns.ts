import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Column builders every table uses; the reference to a member is users.ts's `userIdColumn`. */

/** A table's key: a random uuid. */
export function idColumn() {
  return uuid('id').primaryKey().defaultRandom();
}

/** Every instant we store is a timestamp with time zone. */
export function instant(name: string) {
  return timestamp(name, { withTimezone: true });
}

/** When a row was written and last changed, both required. */
export function timestamps() {
  return { createdAt: instant('created_at').notNull(), updatedAt: instant('updated_at').notNull() };
}
