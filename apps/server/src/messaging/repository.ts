import type { Updateable } from 'kysely';
import type { Db, Dialect } from '../db/connection.js';
import { kept } from '../db/connection.js';
import type { Slots } from '../db/precompiled.js';
import { precompiled } from '../db/precompiled.js';
import type { OutboxRow, OutboxTable } from '../db/schema.js';

// The outbox table's SQL: queued by the change that causes a message, claimed and settled by the
// dispatcher.

/** A message queued by the change that causes it (compiled once per database: `precompiled`). */
export async function insertOutboxRow(db: Db, row: OutboxRow): Promise<void> {
  await outboxRowInserted.run(db, row);
}

const outboxRowInserted = precompiled((db: Db, $: Slots<OutboxRow>) =>
  kept(
    db.insertInto('outbox').values({
      id: $('id'),
      channel: $('channel'),
      recipient: $('recipient'),
      template: $('template'),
      language: $('language'),
      brand: $('brand'),
      params: $('params'),
      status: $('status'),
      attempts: $('attempts'),
      next_attempt_at: $('next_attempt_at'),
      locked_until: $('locked_until'),
      lease_owner: $('lease_owner'),
      expires_at: $('expires_at'),
      last_error: $('last_error'),
      created_at: $('created_at'),
      sent_at: $('sent_at'),
    } satisfies Record<keyof OutboxRow, unknown>),
  ),
);

/** Every channel of the outbox (the scrape's counts range over each, in the due index). */
const OUTBOX_CHANNELS: readonly OutboxTable['channel'][] = ['email', 'sms', 'logout'];

/**
 * The waiting messages by channel, and the oldest one's creation (metrics: every scrape): one
 * range of `outbox_channel_due_idx` per channel, its rows read for their creation (a queue's
 * backlog, not its history).
 */
export function pendingOutboxCounts(db: Db) {
  return db
    .selectFrom('outbox')
    .select((eb) => [
      'channel',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.min('created_at').as('oldest'),
    ])
    .where('channel', 'in', OUTBOX_CHANNELS)
    .where('status', '=', 'pending')
    .groupBy('channel')
    .execute();
}

/**
 * The given-up messages by channel (metrics: every scrape), counted on the entries of one range
 * of `outbox_channel_due_idx` per channel: 30 days of failures, no row read. One statement for
 * both statuses, grouped by channel and status, read every failed message's row and sorted them
 * (17 ms a scrape at a million messages on SQLite, on the event loop; 315 ms where the table had
 * been analysed without samples, which read the whole index: bench/lists.mjs).
 */
export function failedOutboxCounts(db: Db) {
  return db
    .selectFrom('outbox')
    .select((eb) => ['channel', eb.fn.countAll<number | string>().as('count')])
    .where('channel', 'in', OUTBOX_CHANNELS)
    .where('status', '=', 'failed')
    .groupBy('channel')
    .execute();
}

/** One claim: the channel, how many rows, and the lease written on them. */
export interface Claim {
  channel: OutboxRow['channel'];
  now: number;
  limit: number;
  /** This claim's own token: every later update of the rows must name it. */
  owner: string;
  lockedUntil: number;
}

/**
 * Leases up to `limit` due messages of a channel; on PostgreSQL rows another node is claiming are
 * skipped (FOR UPDATE SKIP LOCKED), so no message is claimed twice.
 */
export function claimDueMessages(db: Db, dialect: Dialect, claim: Claim): Promise<OutboxRow[]> {
  const { channel, now, limit, owner, lockedUntil } = claim;
  return db
    .updateTable('outbox')
    .set({ locked_until: lockedUntil, lease_owner: owner })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('outbox')
        .select('id')
        .where('channel', '=', channel)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
    )
    .returningAll()
    .execute();
}

/** What settling a claimed message may change (the lease itself is always given back). */
export type Settlement = Pick<
  Updateable<OutboxTable>,
  'status' | 'sent_at' | 'attempts' | 'next_attempt_at' | 'last_error' | 'params'
>;

/**
 * Settles a claimed message — sent, retried later, failed, expired, or just handed back — only if
 * the claim is still `owner`'s: a worker whose lease was taken over changes nothing (false).
 */
export async function settleMessage(
  db: Db,
  id: string,
  owner: string,
  settlement: Settlement,
): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ ...settlement, locked_until: null, lease_owner: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Queues a failed message again, from a clean slate; false when it is no longer failed. */
export async function requeueFailedMessage(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      lease_owner: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Retention: messages sent, failed or expired, created before `before`, go (pending ones stay). */
export async function deleteSettledMessagesBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('outbox')
    .where('status', 'in', ['sent', 'failed', 'expired'])
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The messages addressed to these recipients not yet purged, newest first (the data export). */
export function messagesToRecipients(db: Db, recipients: string[]) {
  return db
    .selectFrom('outbox')
    .select([
      'id',
      'channel',
      'recipient',
      'template',
      'language',
      'brand',
      'status',
      'created_at',
      'sent_at',
    ])
    .where('channel', 'in', ['email', 'sms'])
    .where('recipient', 'in', recipients)
    .orderBy('created_at', 'desc')
    .execute();
}
