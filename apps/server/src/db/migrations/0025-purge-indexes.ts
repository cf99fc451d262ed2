import type { Kysely } from 'kysely';

// Forward-only. The hourly purge (modules/maintenance) deletes what has expired by its time
// columns, which no index served: each run read every session, code, link, challenge, trusted
// browser, throttle counter and settled message whole — on SQLite on the event loop, about
// 170 ms a million rows a table, every hour on every node (docs/performance.md "Every hot path's
// statements, explained"). Each purge condition gets the index it ranges over: the rows to delete
// are read, not the table. A session's idle expiry never passes its absolute one, so its idle
// expiry alone says it has expired (one index where two would cost every sign-in's insert); the
// links' condition is an OR of two columns, served by one index each (SQLite's MULTI-INDEX OR,
// PostgreSQL's BitmapOr); the settled messages by their status then age. Each index costs the
// writes of its table a little (measured: docs/performance.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();
  await index('sessions_idle_expires_idx', 'sessions', ['idle_expires_at']);
  await index('trusted_devices_expires_idx', 'trusted_devices', ['expires_at']);
  await index('one_time_codes_expires_idx', 'one_time_codes', ['expires_at']);
  await index('link_tokens_expires_idx', 'link_tokens', ['expires_at']);
  await index('link_tokens_consumed_idx', 'link_tokens', ['consumed_at']);
  await index('biometric_challenges_expires_idx', 'biometric_challenges', ['expires_at']);
  await index('throttles_window_idx', 'throttles', ['window_start']);
  await index('outbox_settled_idx', 'outbox', ['status', 'created_at']);
}
