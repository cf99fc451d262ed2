import type { Kysely } from 'kysely';

// Forward-only. Each claim of an outbox row writes its own lease token, and every later update of
// the row names it, so a worker whose lease was taken over can neither re-queue nor settle the row.
// A message carrying a code or a link expires with it (status 'expired' instead of a late send).
// Each channel is claimed on its own (a hung relay must not hold SMS back): the due index leads
// with the channel.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('lease_owner', 'varchar(36)').execute();
  await db.schema.alterTable('outbox').addColumn('expires_at', 'bigint').execute();
  await db.schema.dropIndex('outbox_due_idx').execute();
  await db.schema
    .createIndex('outbox_channel_due_idx')
    .on('outbox')
    .columns(['channel', 'status', 'next_attempt_at'])
    .execute();
}
