import type { Kysely } from 'kysely';

// Forward-only. How the session's user authenticated, as RFC 8176 method references separated by
// spaces (`pwd`, then `otp` or `sms` for the second factor; `hwk user` for a key that verified
// its user): platforms read them as the ID token's `amr`, and its `acr` follows from them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('amr', 'varchar(64)').execute();
}
