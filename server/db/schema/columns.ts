import { sql } from 'drizzle-orm';
import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** A random UUID primary key (ids exposed to clients are never sequential, docs/rules.md#data). */
export const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);

/** A `timestamptz` column named `name` (every time the database keeps carries its zone). */
export const at = (name: string) => timestamp(name, { withTimezone: true });

/** `created_at`: when the row was inserted (timestamptz, the database's clock). */
export const createdAt = () => at('created_at').notNull().defaultNow();

/** `created_at` and `updated_at` (timestamptz); `updated_at` is refreshed by every Drizzle update. */
export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: at('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});
