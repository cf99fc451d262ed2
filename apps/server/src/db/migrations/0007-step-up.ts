import type { Kysely } from 'kysely';

// Forward-only. When the session's user last re-entered the password (the step-up before a
// sensitive change); the sign-in itself and the second factor are already on the session.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'bigint').execute();
}
