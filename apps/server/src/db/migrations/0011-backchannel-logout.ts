import type { Kysely } from 'kysely';

// Forward-only. Where a platform takes OpenID back-channel logout notices (null: it takes none):
// the portal tells it when a user of it signs out of the portal, is locked or resets the password.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('platforms')
    .addColumn('backchannel_logout_uri', 'varchar(500)')
    .execute();
}
