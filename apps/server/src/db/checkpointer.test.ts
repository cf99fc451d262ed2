import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKSTOP_PAGES, checkpointInBackground } from './checkpointer.js';
import { Metrics } from '../lib/metrics.js';
import type { DbHandle } from './connection.js';
import { openDatabase } from './connection.js';

// docs/performance.md "SQLite checkpoints off the event loop": the server's SQLite database is
// checkpointed by a worker thread, the writer keeping only a backstop of its own.
describe('SQLite checkpoints on the checkpointing thread', () => {
  let dir: string;
  let file: string;
  const opened: DbHandle[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-checkpoint-'));
    file = path.join(dir, 'hygie.sqlite');
  });

  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(background: boolean): DbHandle {
    const database = openDatabase(
      { kind: 'sqlite', file },
      { checkpointInBackground: background, checkpointEveryMs: 20 },
    );
    opened.push(database);
    return database;
  }

  /**
   * The names of the `notes` rows the database file itself holds, without its WAL: what a
   * checkpoint has copied back so far (a copy of the file alone, opened where it has no WAL).
   */
  function inDatabaseFile(): string[] {
    const copy = path.join(dir, 'copy.sqlite');
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${copy}${suffix}`, { force: true });
    fs.copyFileSync(file, copy);
    const reader = new SQLite(copy, { readonly: true });
    try {
      const table = reader
        .prepare<[], { name: string }>("select name from sqlite_master where name = 'notes'")
        .get();
      if (!table) return [];
      return reader
        .prepare<[], { body: string }>('select body from notes order by id')
        .all()
        .map((row) => row.body);
    } finally {
      reader.close();
    }
  }

  const autocheckpoint = async (database: DbHandle) =>
    (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db))
      .rows[0]?.wal_autocheckpoint;

  async function writeNote(database: DbHandle, body: string): Promise<void> {
    await sql`create table if not exists notes (id integer primary key, body text not null)`.execute(
      database.db,
    );
    await sql`insert into notes (body) values (${body})`.execute(database.db);
  }

  it('a commit reaches the database file without the writer checkpointing: its own is a backstop', async () => {
    const database = open(true);
    await expect.poll(() => autocheckpoint(database)).toBe(BACKSTOP_PAGES);
    await writeNote(database, 'first');
    await expect.poll(inDatabaseFile, { timeout: 5_000 }).toEqual(['first']);
    await writeNote(database, 'second');
    await expect.poll(inDatabaseFile, { timeout: 5_000 }).toEqual(['first', 'second']);
  });

  it('without it (the commands), the writer checkpoints as SQLite does by default', async () => {
    const database = open(false);
    await writeNote(database, 'first');
    // A few pages, far below the writer's threshold: they stay in the WAL.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inDatabaseFile()).toEqual([]);
    expect(await autocheckpoint(database)).toBe(1000);
  });

  it('closing stops the worker first: the writer then checkpoints everything as it closes', async () => {
    const database = open(true);
    await expect.poll(() => autocheckpoint(database)).toBe(BACKSTOP_PAGES);
    await writeNote(database, 'kept');
    await database.close();
    opened.splice(0);
    expect(inDatabaseFile()).toEqual(['kept']);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('the metrics show the log, and the pages a read held open keeps behind', async () => {
    const database = open(true);
    const metrics = new Metrics();
    metrics.attach({ outbox: () => Promise.resolve([]), wal: database.walStats });
    const scraped = async (state: 'log' | 'behind') => {
      const text = await metrics.registry.metrics();
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`hygie_sqlite_wal_pages{state="${state}"}`));
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    await writeNote(database, 'first');
    await expect.poll(() => scraped('log')).toBeGreaterThan(0);
    expect(await scraped('behind')).toBe(0);
    // Another connection's read transaction, on the snapshot it took: what is written after it
    // cannot be copied into the file while it lasts.
    const reader = new SQLite(file, { readonly: true });
    try {
      reader.prepare('begin').run();
      reader.prepare('select count(*) from notes').get();
      await writeNote(database, 'second');
      await expect.poll(() => scraped('behind'), { timeout: 5_000 }).toBeGreaterThan(0);
      expect(inDatabaseFile()).toEqual(['first']);
      reader.prepare('commit').run();
      await expect.poll(() => scraped('behind'), { timeout: 5_000 }).toBe(0);
      expect(inDatabaseFile()).toEqual(['first', 'second']);
    } finally {
      reader.close();
    }
  });

  it('without the worker, no such metric', async () => {
    const database = open(false);
    const metrics = new Metrics();
    metrics.attach({ outbox: () => Promise.resolve([]), wal: database.walStats });
    expect(await metrics.registry.metrics()).not.toMatch(/^hygie_sqlite_wal_pages\{/m);
  });

  it('a database the worker cannot open keeps the writer checkpointing', async () => {
    const checkpoints = checkpointInBackground(path.join(dir, 'missing.sqlite'), 20);
    expect(await checkpoints.ready).toBe(false);
    await checkpoints.stop();
  });
});
