import type { Kysely } from 'kysely';

// Forward-only. A person's data export lists the e-mails and SMS sent to their addresses
// (messaging/repository.ts, messagesToRecipients): no index began with the recipient, so both
// databases read every e-mail and SMS in the queue, through the channel's index, to find a
// person's handful (db/hot-path-plans.test.ts: an index range on a column most rows share, read
// to its end). The recipient leads, then the channel: on SQLite without statistics an index on
// the recipient alone ranked below the channel's own, both being lists of two values.
//
// An operator may build it first (PostgreSQL's `create index concurrently`, under the same name,
// docs/operations.md): the migration then finds it built.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('outbox_recipient_idx')
    .ifNotExists()
    .on('outbox')
    .columns(['recipient', 'channel', 'created_at'])
    .execute();
}
