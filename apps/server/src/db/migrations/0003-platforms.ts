import type { Kysely } from 'kysely';

// Forward-only. Platforms (OIDC relying parties), who may use them, and the provider's storage.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platforms')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_secret_hash', 'varchar(255)')
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)')
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('logo_url', 'varchar(500)')
    .addColumn('redirect_uris', 'text', (c) => c.notNull()) // JSON array
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull()) // JSON array
    .addColumn('access_policy', 'varchar(16)', (c) => c.notNull()) // open | on_request | admin
    .addColumn('first_party', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('platforms_client_id_uq')
    .on('platforms')
    .column('client_id')
    .unique()
    .execute();

  await db.schema
    .createTable('platform_access')
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('platform_id', 'varchar(36)', (c) =>
      c.notNull().references('platforms.id').onDelete('cascade'),
    )
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // enabled | disabled | requested
    .addColumn('changed_by', 'varchar(36)')
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_access_pk', ['user_id', 'platform_id'])
    .execute();
  await db.schema
    .createIndex('platform_access_platform_idx')
    .on('platform_access')
    .columns(['platform_id', 'status'])
    .execute();

  // oidc-provider's artefacts (sessions, grants, codes, tokens …), one row per model instance.
  await db.schema
    .createTable('oidc_store')
    .addColumn('id', 'varchar(255)', (c) => c.primaryKey()) // `${model}:${id}`
    .addColumn('model', 'varchar(40)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'varchar(255)')
    .addColumn('user_code', 'varchar(255)')
    .addColumn('uid', 'varchar(255)')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('oidc_store_grant_idx').on('oidc_store').column('grant_id').execute();
  await db.schema.createIndex('oidc_store_uid_idx').on('oidc_store').column('uid').execute();
  await db.schema
    .createIndex('oidc_store_user_code_idx')
    .on('oidc_store')
    .column('user_code')
    .execute();
  await db.schema
    .createIndex('oidc_store_expires_idx')
    .on('oidc_store')
    .column('expires_at')
    .execute();
}
