import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

// Forward-only. A user's version, raised by the database itself on every change of the row
// (docs/performance.md "Session check"). The session check reads it with the session, by the
// user's primary key, and keeps the account's presentation in a per-process cache valid for that
// version: a change made by any statement, on any node, moves the version, so no node serves a
// stale profile. A trigger, not the repositories, raises it: no update can forget to.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function users_raise_version() returns trigger language plpgsql as $$
      begin
        new.version := old.version + 1;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger users_version before update on users
      for each row execute function users_raise_version()`.execute(db);
  } else {
    // SQLite runs no trigger from a trigger's own update (recursive_triggers is off): one raise.
    await sql`
      create trigger users_version after update on users
      for each row when new.version = old.version
      begin
        update users set version = old.version + 1 where id = new.id;
      end`.execute(db);
  }
}
