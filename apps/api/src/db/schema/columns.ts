import { timestamp, uuid, type ReferenceConfig } from 'drizzle-orm/pg-core';
import { users } from './users';

// Function declarations, not arrow constants: users.ts uses them too, and a declaration is callable while the
// two modules are still loading each other.

/** A table's key: a random uuid. */
export function idColumn() {
  return uuid('id').primaryKey().defaultRandom();
}

/** Every instant we store is a timestamp with time zone. */
export function instant(name: string) {
  return timestamp(name, { withTimezone: true });
}

/** The member a row belongs to: a required reference to users.id. */
export function userIdColumn(name = 'user_id', actions?: ReferenceConfig['actions']) {
  return uuid(name)
    .notNull()
    .references(() => users.id, actions);
}

/** When a row was written and last changed, both required. */
export function timestamps() {
  return { createdAt: instant('created_at').notNull(), updatedAt: instant('updated_at').notNull() };
}
