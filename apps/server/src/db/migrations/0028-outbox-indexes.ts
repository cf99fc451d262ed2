import type { Kysely } from 'kysely';

// Forward-only. Two reads of the message queue that went through an index of a column most rows
// share, on both databases, and read that share of the queue (30 days of every message):
//
// - A person's data export lists the e-mails and SMS sent to their addresses (messaging/
//   repository.ts, messagesToRecipients): no index began with the recipient, so every e-mail and
//   SMS was read, through the channel's index, to find a person's handful (db/hot-path-plans.
//   test.ts: an index range on a column most rows share, read to its end). The recipient leads,
//   then the channel: on SQLite without statistics an index on the recipient alone ranked below
//   the channel's own, both being lists of two values.
// - The operator's queue filtered by a status and a channel ("the SMS that failed") walked the
//   channel's index, newest first, and read each message's row for its status: every SMS when
//   none had failed, 119 ms at a million messages on SQLite, the event loop held (bench/
//   lists.mjs). Both filters and the page's order get one index: one range, read in its order.
//
// An operator may build them first (PostgreSQL's `create index concurrently`, under the same
// names, docs/operations.md): the migration then finds them built.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('outbox_recipient_idx')
    .ifNotExists()
    .on('outbox')
    .columns(['recipient', 'channel', 'created_at'])
    .execute();
  await db.schema
    .createIndex('outbox_status_channel_created_idx')
    .ifNotExists()
    .on('outbox')
    .columns(['status', 'channel', 'created_at', 'id'])
    .execute();
}
