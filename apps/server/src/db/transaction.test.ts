import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseProxy } from '../faults/db-proxy.js';
import type { TestDatabase } from '../test/helpers.js';
import { DIALECTS, openTestDatabase, TEST_DATABASE_URL } from '../test/helpers.js';
import { databaseWritesDuring } from '../test/database-writes.js';
import { advisoryLock, advisoryLockAwaited, atCommit, holdLock } from '../test/held-locks.js';
import type { Db, DbHandle } from './connection.js';
import { openDatabase } from './connection.js';
import { together, transaction, transactionCommitting } from './transaction.js';

// docs/performance.md "Sign-in": a transaction's statements started together are sent together on
// PostgreSQL (pipelined), and a transaction is still all or nothing, in the order its statements
// were started, on both databases.

const insert = (db: Db, id: number, body: string) =>
  sql`insert into notes (id, body) values (${id}, ${body})`.execute(db);
const bodies = async (db: Db) =>
  (await sql<{ body: string }>`select body from notes order by id`.execute(db)).rows.map(
    (row) => row.body,
  );

/**
 * `fn` on a database of its own, straight to PostgreSQL (not through a proxy), with `poolMax`
 * connections, closed after it; with one connection, `notes` is made on it as a temporary table.
 */
async function onDirectDatabase<T>(
  poolMax: number,
  fn: (direct: DbHandle) => Promise<T>,
): Promise<T> {
  const direct = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL ?? '', poolMax });
  try {
    if (poolMax === 1) {
      await sql`create temp table notes (id integer primary key, body text not null)`.execute(
        direct.db,
      );
    }
    return await fn(direct);
  } finally {
    await direct.close();
  }
}

describe.each(DIALECTS)('a transaction, on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    db = database.handle.db;
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
  });
  afterAll(async () => {
    await database.handle.close();
    await database.drop();
  });
  beforeEach(async () => {
    await sql`delete from notes`.execute(db);
  });

  it('commits what its statements wrote, started together or one after the other', async () => {
    const answer = await transaction(db, async (trx) => {
      await insert(trx, 1, 'un');
      await Promise.all([insert(trx, 2, 'deux'), insert(trx, 3, 'trois')]);
      return bodies(trx);
    });
    expect(answer).toEqual(['un', 'deux', 'trois']);
    expect(await bodies(db)).toEqual(['un', 'deux', 'trois']);
  });

  it('runs statements started together in the order they were started', async () => {
    await transaction(db, async (trx) => {
      await Promise.all([
        insert(trx, 1, 'brouillon'),
        sql`update notes set body = 'final' where id = 1`.execute(trx),
        insert(trx, 2, 'suite'),
      ]);
    });
    expect(await bodies(db)).toEqual(['final', 'suite']);
  });

  it('keeps nothing when a statement started with others fails: the first error is thrown', async () => {
    await insert(db, 2, 'déjà là');
    const failed = transaction(db, async (trx) => {
      await Promise.all([insert(trx, 1, 'un'), insert(trx, 2, 'doublon'), insert(trx, 3, 'trois')]);
    });
    await expect(failed).rejects.toThrow(/unique|UNIQUE/);
    expect(await bodies(db)).toEqual(['déjà là']);
    // The connection went back clean: the next statement on it runs (not "transaction aborted").
    await insert(db, 4, 'après');
    expect(await bodies(db)).toEqual(['déjà là', 'après']);
  });

  it('keeps nothing when its function throws after writing, and rethrows', async () => {
    const failed = transaction(db, async (trx) => {
      await insert(trx, 1, 'un');
      throw new Error('refusé');
    });
    await expect(failed).rejects.toThrow('refusé');
    expect(await bodies(db)).toEqual([]);
  });

  it('transactionCommitting: gives the value, then keeps everything once committed, or nothing when its function throws', async () => {
    const { value, committed } = await transactionCommitting(db, async (trx) => {
      await Promise.all([insert(trx, 1, 'un'), insert(trx, 2, 'deux')]);
      return bodies(trx);
    });
    expect(value).toEqual(['un', 'deux']);
    await committed;
    expect(await bodies(db)).toEqual(['un', 'deux']);
    const failed = transactionCommitting(db, async (trx) => {
      await insert(trx, 3, 'trois');
      throw new Error('refusé');
    });
    await expect(failed).rejects.toThrow('refusé');
    expect(await bodies(db)).toEqual(['un', 'deux']);
  });

  it('together: statements started together are each kept or refused alone', async () => {
    const outcomes = await together(db, (one) =>
      Promise.allSettled([insert(one, 1, 'un'), insert(one, 1, 'doublon'), insert(one, 2, 'deux')]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await bodies(db)).toEqual(['un', 'deux']);
  });

  it('does not begin a transaction inside another', async () => {
    const nested = transaction(db, (trx) => transaction(trx, (inner) => insert(inner, 1, 'un')));
    await expect(nested).rejects.toThrow();
    expect(await bodies(db)).toEqual([]);
  });
});

describe.runIf(TEST_DATABASE_URL)(
  'a transaction on PostgreSQL, pipelined, and statements sent together',
  () => {
    let proxy: DatabaseProxy;
    let database: TestDatabase;
    let db: Db;
    beforeAll(async () => {
      proxy = await new DatabaseProxy({ host: '127.0.0.1', port: 5432 }).listen();
      database = await openTestDatabase('postgres', { url: proxy.url(TEST_DATABASE_URL ?? '') });
      db = database.handle.db;
      await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    });
    afterAll(async () => {
      await database.handle.close();
      await database.drop();
      await proxy.close();
    });
    beforeEach(async () => {
      await sql`delete from notes`.execute(db);
    });

    /** The round trips `run` makes through the proxy. */
    async function roundTrips(run: () => Promise<unknown>): Promise<number> {
      const before = proxy.roundTrips();
      await run();
      return proxy.roundTrips() - before;
    }

    it('sends begin with the first statement, and statements started together in one round trip', async () => {
      const writes = (trx: Db) =>
        Promise.all([insert(trx, 1, 'un'), insert(trx, 2, 'deux'), insert(trx, 3, 'trois')]);
      const pipelined = await roundTrips(() =>
        transaction(db, async (trx) => {
          await bodies(trx);
          await writes(trx);
        }),
      );
      // begin + the read, the three writes, commit.
      expect(pipelined).toBe(3);
      await sql`delete from notes`.execute(db);
      // Kysely's own transaction, one statement a round trip: begin, the read, three writes, commit.
      const oneByOne = await roundTrips(() =>
        db.transaction().execute(async (trx) => {
          await bodies(trx);
          await writes(trx);
        }),
      );
      expect(oneByOne).toBe(6);
      expect(await bodies(db)).toEqual(['un', 'deux', 'trois']);
    });

    it('writes the statements started together to the socket at once: one write a round trip', async () => {
      // Straight to the database (the proxy idle), a pool of one: the writes of the sockets whose
      // far end is the database's port are the transaction's.
      await onDirectDatabase(1, async ({ db: one }) => {
        const writes = await databaseWritesDuring(() =>
          transaction(one, async (trx) => {
            await bodies(trx);
            await Promise.all([
              insert(trx, 1, 'un'),
              insert(trx, 2, 'deux'),
              insert(trx, 3, 'trois'),
            ]);
          }),
        );
        // `begin` with the read, the three writes, `commit`: each statement was a write before.
        expect(writes).toBe(3);
        expect(await bodies(one)).toEqual(['un', 'deux', 'trois']);
      });
    });

    it('transactionCommitting resolves once commit is sent, before its answer: committed settles with it', async () => {
      // The commit waits for an advisory lock another connection holds.
      const key = 730_251;
      const removeTrigger = await atCommit(db, 'notes', `perform pg_advisory_xact_lock(${key})`);
      const other = database.reopen();
      const lock = await holdLock(other.db, advisoryLock(key));
      try {
        const started = transactionCommitting(db, async (trx) => {
          await insert(trx, 1, 'un');
          return 'écrit';
        });
        let resolved = false;
        void started.then(() => (resolved = true));
        // Once the commit waits for the lock, the call has resolved; the commit is not answered and
        // nothing of it is seen elsewhere.
        await advisoryLockAwaited(other.db, key);
        expect(resolved).toBe(true);
        const { value, committed } = await started;
        expect(value).toBe('écrit');
        let settled = false;
        void committed.finally(() => (settled = true));
        expect(await bodies(other.db)).toEqual([]);
        expect(settled).toBe(false);
        await lock.release();
        await committed;
        expect(await bodies(db)).toEqual(['un']);
      } finally {
        await lock.release();
        await other.close();
        await removeTrigger();
      }
    });

    it('transactionCommitting: committed rejects when the commit fails, nothing is kept and the connection serves again', async () => {
      const removeTrigger = await atCommit(db, 'notes', `raise exception 'refusé au commit'`);
      try {
        const { committed } = await transactionCommitting(db, (trx) => insert(trx, 1, 'un'));
        await expect(committed).rejects.toThrow('refusé au commit');
        expect(await bodies(db)).toEqual([]);
      } finally {
        await removeTrigger();
      }
      await transaction(db, (trx) => insert(trx, 2, 'deux'));
      expect(await bodies(db)).toEqual(['deux']);
    });

    it('fails a transaction whose function caught a failed statement: PostgreSQL rolled it back', async () => {
      const failed = transaction(db, async (trx) => {
        await insert(trx, 1, 'un');
        await insert(trx, 1, 'doublon').catch(() => undefined);
      });
      await expect(failed).rejects.toThrow(/rolled back/);
      expect(await bodies(db)).toEqual([]);
    });

    it('fails every statement when the connection breaks, and the next transaction gets a new one', async () => {
      const broken = transaction(db, async (trx) => {
        await insert(trx, 1, 'un');
        proxy.cut();
        await insert(trx, 2, 'deux');
      });
      await expect(broken).rejects.toThrow();
      proxy.restore();
      await transaction(db, (trx) => insert(trx, 3, 'trois'));
      expect(await bodies(db)).toEqual(['trois']);
    });

    it('fails when begin itself fails, with no statement left unanswered, and leaves its connection clean', async () => {
      // A pool of one connection, left in a failed transaction block: PostgreSQL refuses everything
      // on it but the block's end, `begin` included.
      await onDirectDatabase(1, async ({ db: one }) => {
        await sql`begin`.execute(one);
        await expect(sql`select 1 / 0`.execute(one)).rejects.toThrow(/division by zero/);
        // Two statements behind the failed begin: each fails too, and neither is left unhandled
        // (vitest fails a test on an unhandled rejection).
        const failed = transaction(one, async (trx) => {
          await Promise.all([insert(trx, 1, 'un'), insert(trx, 2, 'deux')]);
        });
        await expect(failed).rejects.toThrow(/current transaction is aborted/);
        // Its rollback ended the block: the connection serves the next transaction.
        await transaction(one, (trx) => insert(trx, 3, 'trois'));
        expect(await bodies(one)).toEqual(['trois']);
      });
    });

    // Reads that need no common snapshot, started together, on one connection in one write
    // (`together`, docs/performance.md "Sign-in": the account, the trusted browser and the settings
    // before a password is checked).
    const backend = async (one: Db) =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(one)).rows[0]?.pid;

    it('go on one connection, in one round trip, where apart they take one each', async () => {
      await insert(db, 1, 'un');
      const three = (one: Db) => Promise.all([backend(one), bodies(one), backend(one)]);
      // Warm: the pool has its connections.
      await three(db);
      const before = proxy.roundTrips();
      const [first, read, last] = await together(db, three);
      expect(proxy.roundTrips() - before).toBe(1);
      expect(read).toEqual(['un']);
      expect(first).toBe(last);
      const apart = proxy.roundTrips();
      const [one, , other] = await three(db);
      expect(proxy.roundTrips() - apart).toBe(3);
      expect(one).not.toBe(other);
    });

    it('are written to the socket at once', async () => {
      await onDirectDatabase(2, async (direct) => {
        await backend(direct.db); // connected
        const writes = await databaseWritesDuring(() =>
          together(direct.db, (one) => Promise.all([backend(one), backend(one), backend(one)])),
        );
        expect(writes).toBe(1);
      });
    });

    it('may be answered after the function resolved: the connection is given back only then', async () => {
      await onDirectDatabase(2, async (single) => {
        await backend(single.db);
        const { slow } = await together(single.db, (one) =>
          Promise.resolve({
            slow: sql<{ v: string }>`select 'lent' as v from pg_sleep(0.2)`.execute(one),
          }),
        );
        // Out of the pool while its statement runs.
        expect(single.poolStats?.()).toMatchObject({ total: 1, idle: 0 });
        expect((await slow).rows).toEqual([{ v: 'lent' }]);
        await new Promise((resolve) => setImmediate(resolve));
        expect(single.poolStats?.()).toMatchObject({ total: 1, idle: 1 });
      });
    });

    it('fails when the connection breaks, and the next gets a new connection', async () => {
      const cut = together(db, async (one) => {
        await backend(one);
        proxy.cut();
        return backend(one);
      });
      await expect(cut).rejects.toThrow();
      proxy.restore();
      await expect(together(db, (one) => bodies(one))).resolves.toEqual(expect.any(Array));
    });

    it('refuses a statement started once the function has resolved', async () => {
      const late = await together(db, (one) => Promise.resolve(one));
      await expect(backend(late)).rejects.toThrow(/after its turn/);
    });
  },
);
