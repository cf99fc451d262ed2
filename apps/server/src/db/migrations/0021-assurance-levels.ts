import type { Kysely } from 'kysely';

// Forward-only. Levels of assurance (docs/oidc.md). A session keeps the `acr` of the upstream
// provider it was opened or stepped up through, as `<provider>:<acr>` (`psc:eidas3`): with the
// recorded methods (`amr`), it decides the session's level. A platform keeps the lowest level a
// sign-in to it needs (`low`, `substantial`, `high`; null: none). No index: both are read with
// their row, by its key.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('upstream_acr', 'varchar(64)').execute();
  await db.schema.alterTable('platforms').addColumn('minimum_level', 'varchar(16)').execute();
}
