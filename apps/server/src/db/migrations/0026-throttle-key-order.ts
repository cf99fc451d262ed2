import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

// Forward-only. An account's per-client sign-in counters (`login:user:<id>:<client>`) are cleared
// together, at an admin's unlock or a new password, as one range of the key's index: from the
// prefix up to the prefix with its last character's successor (throttle/repository.ts). Until
// now that delete compared a substring of every key, reading the whole table.
//
// The range is the prefix only where keys compare character by character. SQLite compares text
// so (BINARY); PostgreSQL compares it in the database's collation, and a linguistic one orders
// punctuation otherwise (ICU's en-US puts ';' before ':', so the range would hold nothing and the
// counters would stay). The key gets the "C" collation, byte order, whatever the database's: the
// keys are ASCII names made by the code, never sorted for a person to read, and a lookup by key
// is unchanged. PostgreSQL rebuilds the key's index, holding the table meanwhile: a table of
// short-lived counters, purged hourly (docs/operations.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table throttles alter column key type varchar(120) collate "C"`.execute(db);
  }
}
