import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Forward-only. Pending e-mail/phone changes and the admin search key.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pending_email', 'varchar(180)').execute();
  await db.schema.alterTable('users').addColumn('pending_phone', 'varchar(20)').execute();
  // "last first", lower-case without accents: prefix searches use its index on both databases.
  await db.schema.alterTable('users').addColumn('search_name', 'varchar(210)').execute();
  await sql`update users set search_name = lower(coalesce(last_name, '') || ' ' || coalesce(first_name, ''))`.execute(
    db,
  );
  await db.schema.createIndex('users_search_name_idx').on('users').column('search_name').execute();
  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();
}
