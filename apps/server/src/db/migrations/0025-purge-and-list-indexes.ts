import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Forward-only. Statements that read whole tables, found by explaining every statement of the
// hot paths (db/hot-path-plans.test.ts; docs/performance.md "Every hot path's statements,
// explained"): the hourly purge, the operator's lists and the metrics' counts, an erasure.
//
// The hourly purge (modules/maintenance) deleted what has expired by time columns no index
// served: each run read every session, code, link, challenge, trusted browser, throttle counter
// and settled message — on SQLite on the event loop, about 170 ms a million rows a table, every
// hour on every node. Each purge condition gets the index it ranges over. A session's idle expiry
// never passes its absolute one, so its idle expiry alone says it has expired (one index where
// two would cost every sign-in's insert); the links' condition is an OR of two columns, served by
// one index each (SQLite's MULTI-INDEX OR, PostgreSQL's BitmapOr).
//
// The operator's lists, newest first in keyset pages on (time, id), had no index in that order:
// the trail's on the time alone (PostgreSQL then read and sorted every event for a page), the
// message queue none (every message sorted, or every message of a channel when filtered by it).
// The trail's time index gets the id as its last column, and the queue indexes on (created_at,
// id), by status and by channel, the id last: a page reads its own rows. The purge of settled
// messages and the metrics' counts of waiting ones (at every scrape, until now a whole-table
// read on SQLite) range over the status's. The trail filtered by a type walks the time order and
// skips the other types: an index of its own would cost every sign-in's events
// (docs/performance.md).
//
// An erasure removed the addresses from the person's events by reading the whole trail (no index
// on who caused an event). The events someone caused about something else than themselves (an
// admin's about others, a person's about a platform) get a partial index of their own; a
// sign-in's events, about the person who caused them, are not in it and write nothing to it.
//
// An operator may build these first (PostgreSQL's `create index concurrently`, under the same
// names, docs/operations.md): the migration then finds them built.
export async function up(db: Kysely<unknown>): Promise<void> {
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
  await index('sessions_idle_expires_idx', 'sessions', ['idle_expires_at']);
  await index('trusted_devices_expires_idx', 'trusted_devices', ['expires_at']);
  await index('one_time_codes_expires_idx', 'one_time_codes', ['expires_at']);
  await index('link_tokens_expires_idx', 'link_tokens', ['expires_at']);
  await index('link_tokens_consumed_idx', 'link_tokens', ['consumed_at']);
  await index('biometric_challenges_expires_idx', 'biometric_challenges', ['expires_at']);
  await index('throttles_window_idx', 'throttles', ['window_start']);
  await index('outbox_created_idx', 'outbox', ['created_at', 'id']);
  await index('outbox_status_created_idx', 'outbox', ['status', 'created_at', 'id']);
  await index('outbox_channel_created_idx', 'outbox', ['channel', 'created_at', 'id']);
  await index('audit_events_at_id_idx', 'audit_events', ['at', 'id']);
  await db.schema.dropIndex('audit_events_at_idx').ifExists().execute();
  await sql`create index if not exists audit_events_actor_others_idx on audit_events (actor_id)
    where actor_id is not null and (target_id is null or target_id <> actor_id)`.execute(db);
}
