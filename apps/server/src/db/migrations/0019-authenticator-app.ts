import type { Kysely } from 'kysely';

// Forward-only. An account's authenticator app (TOTP, RFC 6238): its secret, sealed with the data
// key like the other sealed users columns (security/field-crypto.ts, bound to column and row);
// when the owner confirmed it with a first code (null: enrolment pending, not yet a factor); and
// the last time step a code was accepted for, so that each code is accepted once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
}
