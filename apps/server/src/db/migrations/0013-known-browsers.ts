import type { Kysely } from 'kysely';

// Forward-only. The browsers each account has signed in from (a random cookie, stored hashed):
// the sign-in notice goes only for a browser the account has not used before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('known_browsers')
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('known_browsers_pk', ['user_id', 'token_hash'])
    .execute();
  await db.schema
    .createIndex('known_browsers_last_seen_idx')
    .on('known_browsers')
    .column('last_seen_at')
    .execute();
}
