import type { Kysely } from 'kysely';

// Forward-only. An account's recovery codes (issue #20): ten single-use codes, each stored as the
// SHA-256 of the account's id and the code (never the code), used once (`used_at`); a new set
// replaces the old one. `users.recovery_codes_left` counts the unused ones in the same transaction
// that uses or replaces them, so the second-factor stage lists `recovery_code` without a query.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('recovery_codes_left', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
