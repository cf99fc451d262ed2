import type { Kysely } from 'kysely';

// Forward-only. The OpenID Connect provider: whose artefact a row is, so that signing out of the
// portal can end the user's provider sessions on every node.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_store').addColumn('account_id', 'varchar(36)').execute();
  await db.schema
    .createIndex('oidc_store_account_idx')
    .on('oidc_store')
    .columns(['account_id', 'model'])
    .execute();
}
