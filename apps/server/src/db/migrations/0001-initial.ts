import type { Kysely } from 'kysely';

// Forward-only. Times are epoch ms in bigint columns; flags are integers (see schema.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('person'))
    .addColumn('email', 'varchar(180)', (c) => c.notNull())
    .addColumn('email_verified_at', 'bigint')
    .addColumn('phone', 'varchar(20)')
    .addColumn('phone_verified_at', 'bigint')
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('password_changed_at', 'bigint')
    .addColumn('must_create_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('profile', 'varchar(16)')
    .addColumn('status', 'varchar(24)', (c) => c.notNull().defaultTo('active'))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('first_name', 'varchar(100)')
    .addColumn('last_name', 'varchar(100)')
    .addColumn('birth_name', 'varchar(100)')
    .addColumn('language', 'varchar(2)', (c) => c.notNull().defaultTo('fr'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // E-mails are stored normalised (lower-case), so a plain unique index is case-insensitive.
  await db.schema.createIndex('users_email_uq').on('users').column('email').unique().execute();
  await db.schema.createIndex('users_phone_idx').on('users').column('phone').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('stage', 'varchar(40)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('idle_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .execute();
  await db.schema
    .createIndex('sessions_token_hash_uq')
    .on('sessions')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(36)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(36)')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(36)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_events_at_idx').on('audit_events').column('at').execute();
  await db.schema
    .createIndex('audit_events_target_idx')
    .on('audit_events')
    .column('target_id')
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(255)', (c) => c.notNull())
    .addColumn('template', 'varchar(64)', (c) => c.notNull())
    .addColumn('language', 'varchar(2)', (c) => c.notNull())
    .addColumn('brand', 'varchar(16)', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('outbox_due_idx')
    .on('outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
