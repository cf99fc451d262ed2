import type { Kysely } from 'kysely';

// Forward-only. Biometric keys (WebAuthn passkeys and the mobile app's keys) and their challenges.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credentials')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(16)', (c) => c.notNull()) // webauthn | native
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull()) // base64url
    .addColumn('public_key', 'text', (c) => c.notNull()) // base64url (COSE for webauthn, SPKI DER for native)
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text')
    .addColumn('device_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_verifying', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('credentials_credential_id_uq')
    .on('credentials')
    .columns(['kind', 'credential_id'])
    .unique()
    .execute();
  await db.schema.createIndex('credentials_user_idx').on('credentials').column('user_id').execute();

  await db.schema
    .createTable('biometric_challenges')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)')
    .addColumn('purpose', 'varchar(24)', (c) => c.notNull())
    .addColumn('challenge', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
}
