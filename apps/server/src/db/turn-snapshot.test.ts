import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommittedRead, DbHandle } from './connection.js';
import { committedRead, openDatabase } from './connection.js';

// docs/performance.md "Session check": on SQLite the committed reads of one turn of the event loop
// share one read transaction, ended with the turn, and renewed whenever this process has written.
describe('SQLite committed reads: one snapshot a turn', () => {
  const nameQuery: CompiledQuery<{ name: string }> = CompiledQuery.raw(
    'select name from people where id = ?',
    [],
  );
  let dir: string;
  let file: string;
  let database: DbHandle;
  /** Another process's connection to the same file (a command such as `user:lock`). */
  let other: SQLite.Database;
  let readName: CommittedRead<{ name: string }>;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-snapshot-'));
    file = path.join(dir, 'hygie.sqlite');
    database = openDatabase({ kind: 'sqlite', file });
    await sql`create table people (id integer primary key, name text not null)`.execute(
      database.db,
    );
    await sql`insert into people (id, name) values (1, 'Ada')`.execute(database.db);
    other = new SQLite(file);
    other.pragma('busy_timeout = 5000');
    const read = committedRead(database.db, nameQuery);
    if (!read) throw new Error('no committed reader on a SQLite file');
    readName = read;
  });

  afterEach(async () => {
    other.close();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A checkpoint by the other connection: how many WAL frames there are, and how many it moved. */
  const checkpoint = () =>
    other
      .prepare<[], { log: number; checkpointed: number }>('pragma wal_checkpoint(passive)')
      .get();
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const name = () => readName([1])?.name;

  /** Runs `steps` and checks that no turn of the event loop ended while they ran. */
  async function withinOneTurn(steps: () => Promise<void>): Promise<void> {
    let turnEnded = false;
    setImmediate(() => {
      turnEnded = true;
    });
    await steps();
    expect(turnEnded).toBe(false);
  }

  it("shares a turn's snapshot: another process's commit is seen from the next turn, and the snapshot ends with the turn", async () => {
    await withinOneTurn(async () => {
      expect(name()).toBe('Ada');
      other.prepare("update people set name = 'Grace' where id = 1").run();
      // The turn's reads share the snapshot its first read began.
      expect(name()).toBe('Ada');
      // A reader holds the WAL: a checkpoint cannot move everything into the file.
      const during = checkpoint();
      expect(during?.checkpointed).toBeLessThan(during?.log ?? 0);
      await Promise.resolve();
    });
    await nextTurn();
    // The snapshot ended with the turn: nothing holds the WAL any more.
    const after = checkpoint();
    expect(after?.checkpointed).toBe(after?.log);
    expect(name()).toBe('Grace');
  });

  it("sees this process's own commit at once, in the same turn", async () => {
    await withinOneTurn(async () => {
      expect(name()).toBe('Ada');
      await sql`update people set name = 'Grace' where id = 1`.execute(database.db);
      expect(name()).toBe('Grace');
      await sql`delete from people where id = 1`.execute(database.db);
      expect(readName([1])).toBeUndefined();
    });
  });

  it("never sees this process's transaction in progress, and sees its commit at once", async () => {
    await withinOneTurn(async () => {
      expect(name()).toBe('Ada');
      await database.db.transaction().execute(async (trx) => {
        await sql`update people set name = 'Grace' where id = 1`.execute(trx);
        expect(name()).toBe('Ada');
        await sql`update people set name = 'Linus' where id = 1`.execute(trx);
        // A snapshot begun inside the writer's transaction is not kept past its commit.
        expect(name()).toBe('Ada');
      });
      expect(name()).toBe('Linus');
    });
  });

  it('closes with a snapshot open, and the end of the turn does not touch the closed connection', async () => {
    expect(name()).toBe('Ada');
    await database.close();
    await nextTurn();
    // The file opens again, whole.
    database = openDatabase({ kind: 'sqlite', file });
    expect(committedRead(database.db, nameQuery)?.([1])?.name).toBe('Ada');
  });
});
