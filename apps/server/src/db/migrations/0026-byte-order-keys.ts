import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

// Forward-only. The keys the code reads by prefix, as one range of their index, compare byte by
// byte on PostgreSQL as they do on SQLite (BINARY), whatever the database's collation:
// - the admin search's name key and e-mail (users.search_name, users.email), read from the
//   prefix typed up to the prefix followed by U+FFFF (users/repository.ts);
// - the throttles' key, whose per-client counters of an account (`login:user:<id>:<client>`)
//   are cleared together at an admin's unlock or a new password, from the prefix up to the
//   prefix with its last character's successor (throttle/repository.ts; until now a read of the
//   whole table, by a substring of every key).
//
// A range is the prefix only where the keys compare character by character. A linguistic
// collation does not: glibc's fr_FR.UTF-8 and en_US.UTF-8 put U+FFFF before the letters, so a
// search for "dur" found only the accounts whose key is "dur" itself; ICU's en-US orders ';'
// before ':', so the counters' range held nothing and the owner stayed slowed at every client
// (admin/user-search.test.ts, throttle/reset-account.test.ts, db/migrate.test.ts). The three
// columns get the "C" collation (byte order): they hold normalised keys (lower case, the search
// key without its accents), never sorted for a person to read, and an equality (the unique
// e-mail, a counter's key) is unchanged, byte for byte as it was on every deterministic
// collation. PostgreSQL rebuilds the indexes over them, holding the tables meanwhile
// (docs/operations.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table throttles alter column key type varchar(120) collate "C"`.execute(db);
    await sql`alter table users
      alter column email type varchar(180) collate "C",
      alter column search_name type varchar(210) collate "C"`.execute(db);
  }
}
