import { sql } from 'kysely';
import type { Db } from '../db/connection.js';

// PostgreSQL: a lock held by another connection, and a trigger run at commit, so that a test can
// hold a statement or a commit of the app where it is and look at what the app does meanwhile.

/** A lock held in a transaction of another connection until `release`. */
export interface HeldLock {
  release(): Promise<void>;
}

/** Takes a lock with `take` in a transaction of `db` (another pool than the app's) and holds it. */
export async function holdLock(db: Db, take: (trx: Db) => Promise<unknown>): Promise<HeldLock> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = () => {};
  const held = new Promise<void>((resolve) => (holding = resolve));
  const holder = db.transaction().execute(async (trx) => {
    await take(trx);
    holding();
    await released;
  });
  await Promise.race([held, holder]);
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

/** Takes advisory lock `key` until the transaction ends (for holdLock). */
export const advisoryLock = (key: number) => (trx: Db) =>
  sql`select pg_advisory_xact_lock(${key})`.execute(trx);

/**
 * Resolves once a session of the database waits for advisory lock `key`; throws when none has
 * after `timeoutMs`, so that a test whose statement never comes fails and releases its lock
 * rather than hold it until the suite's end.
 */
export async function advisoryLockAwaited(db: Db, key: number, timeoutMs = 15_000): Promise<void> {
  const waiting = async () =>
    (
      await sql<{ n: number }>`select count(*)::int as n from pg_locks
        where locktype = 'advisory' and objid = ${key} and not granted`.execute(db)
    ).rows[0]?.n ?? 0;
  const until = Date.now() + timeoutMs;
  while ((await waiting()) === 0) {
    if (Date.now() > until) throw new Error(`no session waited for advisory lock ${key}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Runs the PL/pgSQL statements `body` at the commit of any transaction that wrote a row of
 * `table` (`new` is the row), until the returned function removes it.
 */
export async function atCommit(db: Db, table: string, body: string): Promise<() => Promise<void>> {
  const name = sql.raw(`${table}_at_commit`);
  await sql`create function ${name}() returns trigger language plpgsql as ${sql.lit(
    `begin ${body}; return null; end`,
  )}`.execute(db);
  await sql`create constraint trigger ${name} after insert or update on ${sql.table(table)}
    deferrable initially deferred for each row execute function ${name}()`.execute(db);
  return async () => {
    await sql`drop trigger if exists ${name} on ${sql.table(table)}`.execute(db);
    await sql`drop function if exists ${name}()`.execute(db);
  };
}
