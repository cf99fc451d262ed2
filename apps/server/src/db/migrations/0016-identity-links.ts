import type { Kysely } from 'kysely';

// Forward-only. An account's links to upstream identity providers (Pro Santé Connect,
// FranceConnect): the provider's subject signs its user in. One account per (provider, subject).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_links')
    .addColumn('provider', 'varchar(40)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addPrimaryKeyConstraint('identity_links_pk', ['provider', 'subject'])
    .execute();
  await db.schema
    .createIndex('identity_links_user_idx')
    .on('identity_links')
    .column('user_id')
    .execute();
}
