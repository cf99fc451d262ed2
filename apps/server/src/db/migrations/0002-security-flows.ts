import type { ColumnDataType, Kysely } from 'kysely';

// Forward-only. Person fields, second factor, codes, links, consents, trusted devices, throttling.
export async function up(db: Kysely<unknown>): Promise<void> {
  const userColumns: [string, ColumnDataType][] = [
    ['birth_date', 'varchar(10)'],
    ['birth_place_insee', 'varchar(5)'],
    ['sex', 'varchar(8)'],
    ['ins', 'varchar(15)'],
    ['ins_oid', 'varchar(32)'],
    ['first_name_used', 'varchar(100)'],
    ['last_name_used', 'varchar(100)'],
    ['professional_id_type', 'varchar(8)'],
    ['professional_id', 'varchar(20)'],
    ['job', 'varchar(100)'],
    ['specialty', 'varchar(100)'],
    ['cgu_version', 'varchar(40)'],
  ];
  for (const [name, type] of userColumns) {
    await db.schema.alterTable('users').addColumn(name, type).execute();
  }
  await db.schema.createIndex('users_ins_uq').on('users').column('ins').unique().execute();
  await db.schema
    .createIndex('users_professional_id_uq')
    .on('users')
    .columns(['professional_id_type', 'professional_id'])
    .unique()
    .execute();
  await db.schema.createIndex('users_status_idx').on('users').column('status').execute();

  await db.schema.alterTable('sessions').addColumn('mfa_verified_at', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('trusted_device_id', 'varchar(36)').execute();

  await db.schema
    .createTable('trusted_devices')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trusted_devices_token_uq')
    .on('trusted_devices')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema
    .createIndex('trusted_devices_user_idx')
    .on('trusted_devices')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('destination', 'varchar(255)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('superseded_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('one_time_codes_user_purpose_idx')
    .on('one_time_codes')
    .columns(['user_id', 'purpose', 'created_at'])
    .execute();
  await db.schema
    .createIndex('one_time_codes_destination_idx')
    .on('one_time_codes')
    .columns(['destination', 'created_at'])
    .execute();

  await db.schema
    .createTable('link_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('link_tokens_token_uq')
    .on('link_tokens')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema
    .createIndex('link_tokens_user_idx')
    .on('link_tokens')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('consents')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('version', 'varchar(40)', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('consents_user_idx').on('consents').column('user_id').execute();

  // Throttling counters shared by every node (Redis may hold them instead, see docs).
  await db.schema
    .createTable('throttles')
    .addColumn('key', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint')
    .execute();
}
