import { CompiledQuery, sql } from 'kysely';
import {
  batchArity,
  committedRead,
  KEPT_MARK,
  pooledBatchRead,
  pooledRead,
} from '../../db/connection.js';
import { isDatabaseUnavailable, isStalePreparedStatement } from '../../db/errors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS } from '../../test/helpers.js';
import { echo, placeholders } from '../../test/batched-reads.js';
import { explain } from '../../test/query-log.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import { openSession } from './service.js';
import { findSessionById, findSessionByTokenHash } from './repository.js';

// architecture §10: the session check behind every authenticated call is one indexed lookup.
describe.each(DIALECTS)('session lookup plan on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A new account with a complete session: its id and the session's token. */
  async function liveSession(email: string): Promise<{ userId: string; token: string }> {
    const userId = await createUser(t, { email, password: 'Hot-Path-4821' });
    const meta = { ip: null, userAgent: null };
    const { token } = await openSession(t.ctx, userId, 'complete', meta, { amr: ['pwd'] });
    return { userId, token };
  }

  it('runs one statement: the session by its unique token-hash index, the user by primary key', async () => {
    let found: unknown = 'not run';
    const queries = await t.queries.during(async () => {
      found = await findSessionByTokenHash(t.ctx.db, 'f'.repeat(64));
    });
    expect(found).toBeUndefined();
    expect(queries).toHaveLength(1);
    const plan = await explain(t.ctx.db, dialect, queries[0]!);
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/SEARCH sessions USING INDEX sessions_token_hash_uq/);
      expect(plan).toMatch(
        /SEARCH users USING INDEX sqlite_autoindex_users_1|SEARCH users USING PRIMARY KEY/,
      );
      expect(plan).not.toMatch(/SCAN/);
    } else {
      expect(plan).toMatch(/Index Scan using sessions_token_hash_uq/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
  });

  it('reads the user by primary key only when this process has not seen its version', async () => {
    const { token } = await liveSession('hot-path@hygie.test');
    const cold = await t.queries.during(() => findSessionByTokenHash(t.ctx.db, hashToken(token)));
    expect(cold).toHaveLength(2);
    const plan = await explain(t.ctx.db, dialect, cold[1]!);
    if (dialect === 'sqlite') {
      expect(plan).toMatch(
        /SEARCH users USING INDEX sqlite_autoindex_users_1|SEARCH users USING PRIMARY KEY/,
      );
      expect(plan).not.toMatch(/SCAN/);
    } else {
      expect(plan).toMatch(/Index Scan using users_pkey/);
    }
    const warm = await t.queries.during(async () => {
      const found = await findSessionByTokenHash(t.ctx.db, hashToken(token));
      expect(found?.user.email).toBe('hot-path@hygie.test');
    });
    expect(warm).toHaveLength(1);
    expect(await findSessionByTokenHash(t.ctx.db, hashToken(randomToken()))).toBeUndefined();
  });

  it('gives every column of the session row, and its user', async () => {
    const { userId, token } = await liveSession('every-column@hygie.test');
    const { id } = await t.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    // Every column set, so that one copied from the wrong field shows.
    await t.ctx.db
      .updateTable('sessions')
      .set({
        ip: '192.0.2.7',
        user_agent: 'Every-Column/1.0',
        mfa_verified_at: 1_000_001,
        reauthenticated_at: 1_000_002,
        amr: 'pwd otp',
        upstream_acr: 'idp:eidas2',
      })
      .where('id', '=', id)
      .execute();
    // The user's columns too, each its own value.
    await t.ctx.db
      .updateTable('users')
      .set({
        email_verified_at: 1_000_003,
        phone_verified_at: 1_000_004,
        totp_enabled_at: 1_000_005,
        recovery_codes_left: 7,
        profile: 'professional',
        language: 'ar',
        roles: '["auditor"]',
      })
      .where('id', '=', userId)
      .execute();
    const row = await findSessionById(t.ctx.db, id);
    const userRow = await t.ctx.db
      .selectFrom('users')
      .select([
        'id',
        'email',
        'email_verified_at',
        'phone',
        'phone_verified_at',
        'first_name',
        'last_name',
        'profile',
        'status',
        'roles',
        'language',
        'totp_enabled_at',
        'recovery_codes_left',
      ])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(userRow.email).toBe('every-column@hygie.test');
    for (const pass of ['cold', 'warm']) {
      const found = await findSessionByTokenHash(t.ctx.db, hashToken(token));
      const { user, ...session } = found ?? { user: null };
      expect(session, pass).toStrictEqual({ ...row });
      expect(user, pass).toStrictEqual(userRow);
    }
  });

  // PostgreSQL only (SQLite keeps its statements in the process already): defined there alone.
  if (dialect === 'postgres')
    it('PostgreSQL keeps the lookups prepared on the connection, under a name', async () => {
      const { userId, token } = await liveSession('prepared@hygie.test');
      await t.ctx.db.connection().execute(async (connection) => {
        expect((await findSessionByTokenHash(connection, hashToken(token)))?.user_id).toBe(userId);
        const prepared = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements`.execute(connection);
        const session = prepared.rows.find((r) => r.statement.includes('"sessions"."token_hash"'));
        expect(session?.name).toMatch(/^hygie_kept_\d+$/);
      });
    });

  // The database's own reads go beside Kysely's queue: the read-only connection on SQLite, the pool
  // itself on PostgreSQL; a transaction or a single connection reads through Kysely (its writes).
  it('reads the database beside Kysely, a transaction through it', async () => {
    const query: CompiledQuery<{ n: number }> = CompiledQuery.raw('select 1 as n', []);
    const beside =
      dialect === 'sqlite' ? committedRead(t.ctx.db, query) : pooledRead(t.ctx.db, query);
    const other =
      dialect === 'sqlite' ? pooledRead(t.ctx.db, query) : committedRead(t.ctx.db, query);
    expect(beside).toBeDefined();
    expect(other).toBeUndefined();
    await t.ctx.db.transaction().execute(async (trx) => {
      expect(committedRead(trx, query)).toBeUndefined();
      expect(pooledRead(trx, query)).toBeUndefined();
      // Kysely's path still reads inside the transaction.
      expect((await trx.executeQuery(query)).rows).toEqual([{ n: 1 }]);
    });
    const logged = await t.queries.during(async () => {
      expect(await beside?.([])).toEqual({ n: 1 });
    });
    expect(logged.map((q) => q.sql)).toEqual(['select 1 as n']);
  });

  if (dialect === 'postgres')
    it('PostgreSQL sends the pool reads prepared under a name, on every connection', async () => {
      // A pooled read that lists the statements prepared on its own connection: itself among them.
      const statements: CompiledQuery<{ name: string }> = CompiledQuery.raw(
        "select name from pg_prepared_statements where statement like '%pg_prepared_statements%' and $1::int = 1",
        [],
      );
      const read = pooledRead(t.ctx.db, statements);
      if (!read) throw new Error('no pooled read on PostgreSQL');
      const rows = await Promise.all(Array.from({ length: 4 }, () => read([1])));
      for (const row of rows) expect(row?.name).toMatch(/^hygie_kept_\d+$/);
    });

  if (dialect === 'postgres')
    it('PostgreSQL batches the checks of one turn of the event loop in one statement, each answered its own session', async () => {
      const a = await liveSession('batch-a@hygie.test');
      const b = await liveSession('batch-b@hygie.test');
      // The users seen once, so that the batch is the session statement alone.
      for (const { token } of [a, b]) await findSessionByTokenHash(t.ctx.db, hashToken(token));
      const asked = [a.token, b.token, a.token, randomToken()].map((token) => hashToken(token));
      let found: Awaited<ReturnType<typeof findSessionByTokenHash>>[] = [];
      const queries = await t.queries.during(async () => {
        found = await Promise.all(asked.map((hash) => findSessionByTokenHash(t.ctx.db, hash)));
      });
      expect(queries).toHaveLength(1);
      // Three keys, sent as four: the statement for four keys, the last repeated.
      expect(queries[0]?.parameters).toEqual([asked[0], asked[1], asked[3], asked[3]]);
      expect(found.map((s) => s?.user_id)).toEqual([a.userId, b.userId, a.userId, undefined]);
      expect(found.map((s) => s?.token_hash)).toEqual([asked[0], asked[1], asked[2], undefined]);
      // Each check its own session object: one may slide it without touching another's.
      expect(found[0]).not.toBe(found[2]);
      expect(found[0]).toStrictEqual(found[2]);
      // By the unique index (probed for each key, or as a bitmap of them), never by a scan.
      const plan = await explain(t.ctx.db, dialect, queries[0]!);
      expect(plan).toMatch(
        /Index Scan using sessions_token_hash_uq|Bitmap Index Scan on sessions_token_hash_uq/,
      );
      expect(plan).not.toMatch(/Seq Scan/);
    });

  if (dialect === 'postgres')
    it('PostgreSQL: a batched read that fails fails every check waiting on it', async () => {
      const broken = (arity: number): CompiledQuery<{ k: string }> =>
        CompiledQuery.raw(`select k from no_such_table where k in (${placeholders(arity)})`, []);
      const read = pooledBatchRead(t.ctx.db, broken, (row) => row.k);
      if (!read) throw new Error('no batched read on PostgreSQL');
      const outcomes = await Promise.allSettled(['x', 'y', 'x'].map((key) => read(key)));
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      // The next turn's reads go in a statement of their own, not left waiting on the failed one.
      await expect(read('z')).rejects.toThrow(/no_such_table/);
    });

  if (dialect === 'postgres')
    it('PostgreSQL: the batches go on one connection kept for them, written without waiting for the one before; a broken one is replaced', async () => {
      // Each key answered with the backend that read it.
      const whose = (arity: number): CompiledQuery<{ k: string; pid: number }> =>
        CompiledQuery.raw(
          `select k, pg_backend_pid() as pid from unnest(array[${placeholders(arity)}]::text[]) as k`,
          [],
        );
      const read = pooledBatchRead(t.ctx.db, whose, (row) => row.k);
      if (!read) throw new Error('no batched read on PostgreSQL');
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      // Three turns' batches in flight at once: through the pool each took a connection of its own.
      const first = read('a');
      await turn();
      const second = read('b');
      await turn();
      const third = read('c');
      const pids = (await Promise.all([first, second, third])).map((row) => row?.pid);
      expect(new Set(pids).size).toBe(1);
      // The database ends that connection: the next batches go on another one.
      await sql`select pg_terminate_backend(${pids[0]})`.execute(t.ctx.db);
      await expect
        .poll(async () => (await read('d').catch(() => undefined))?.pid, { timeout: 5_000 })
        .toSatisfy((pid) => typeof pid === 'number' && pid !== pids[0]);
    });

  // A migration that changes a column a kept lookup returns (0026 gave users.email another
  // collation) makes PostgreSQL refuse the statement on each connection that prepared it before,
  // at every run: the session checks of a node serving while another migrates failed, for as long
  // as its connections lived. Each path prepares the lookup anew.
  if (dialect === 'postgres')
    it('PostgreSQL: the kept lookups survive a migration that changes what they return', async () => {
      const { userId, token } = await liveSession('migrated-under@hygie.test');
      const hash = hashToken(token);
      const changeUser = () =>
        sql`update users set first_name = first_name where id = ${userId}`.execute(t.ctx.db);
      const alterEmail = (collation: 'POSIX' | 'C') =>
        sql`alter table users alter column email type varchar(180) collate ${sql.id(collation)}`.execute(
          t.ctx.db,
        );
      /** Eight checks at once, the user read again by each (its version moved): the pool's paths. */
      const checks = async () => {
        const found = await Promise.all(
          Array.from({ length: 8 }, () => findSessionByTokenHash(t.ctx.db, hash)),
        );
        return found.map((f) => f?.user.email);
      };
      await changeUser();
      expect(await checks()).toEqual(Array(8).fill('migrated-under@hygie.test'));
      // A column each lookup returns in another collation, and the user changed.
      await alterEmail('POSIX');
      await sql`alter table sessions alter column user_agent type varchar(512) collate "POSIX"`.execute(
        t.ctx.db,
      );
      await changeUser();
      expect(await checks()).toEqual(Array(8).fill('migrated-under@hygie.test'));

      // Through Kysely (a transaction, a single connection): the stale statement fails that one
      // run, as unavailable (503, Retry-After); the next prepares it anew.
      await t.ctx.db.connection().execute(async (connection) => {
        expect((await findSessionByTokenHash(connection, hash))?.user_id).toBe(userId);
        await alterEmail('C');
        await changeUser();
        const stale = await findSessionByTokenHash(connection, hash).catch((err: unknown) => err);
        expect(isStalePreparedStatement(stale)).toBe(true);
        expect(isDatabaseUnavailable(stale)).toBe(true);
        expect((await findSessionByTokenHash(connection, hash))?.user.email).toBe(
          'migrated-under@hygie.test',
        );
      });
      expect(await checks()).toEqual(Array(8).fill('migrated-under@hygie.test'));
    });

  if (dialect === 'postgres')
    it('PostgreSQL: a batch carries 64 keys at most a statement', async () => {
      const read = pooledBatchRead(t.ctx.db, echo, (row) => row.k);
      if (!read) throw new Error('no batched read on PostgreSQL');
      const keys = Array.from({ length: 70 }, (_, i) => `key-${i}`);
      let rows: ({ k: string } | undefined)[] = [];
      const queries = await t.queries.during(async () => {
        rows = await Promise.all(keys.map((key) => read(key)));
      });
      expect(rows.map((row) => row?.k)).toEqual(keys);
      // 64 keys, then the other six sent as eight (the last repeated).
      expect(queries.map((q) => new Set(q.parameters).size)).toEqual([64, 6]);
      expect(queries.map((q) => q.parameters.length)).toEqual([64, 8]);
    });

  if (dialect === 'postgres')
    it('PostgreSQL: a batch of any number of keys is sent as the statement for a power of two, the last key repeated', async () => {
      expect([1, 2, 3, 4, 5, 8, 9, 33, 64, 65, 200].map(batchArity)).toEqual([
        1, 2, 4, 4, 8, 8, 16, 64, 64, 64, 64,
      ]);
      const read = pooledBatchRead(t.ctx.db, echo, (row) => row.k);
      if (!read) throw new Error('no batched read on PostgreSQL');
      for (const count of [1, 2, 3, 5]) {
        const keys = Array.from({ length: count }, (_, i) => `k${count}-${i}`);
        let rows: ({ k: string } | undefined)[] = [];
        const queries = await t.queries.during(async () => {
          rows = await Promise.all(keys.map((key) => read(key)));
        });
        expect(rows.map((row) => row?.k)).toEqual(keys);
        expect(queries.map((q) => q.parameters)).toEqual([
          [...keys, ...Array(batchArity(count) - count).fill(keys.at(-1))],
        ]);
      }
    });

  // A kept statement is worth keeping only if PostgreSQL keeps its plan too: a statement whose plan
  // for any parameters looks costlier than one made for the parameters at hand is planned again at
  // every run (pg_prepared_statements counts "custom" plans), which cost the session check more
  // than its lookup when the batch took its keys as one array.
  if (dialect === 'postgres')
    it('PostgreSQL plans the batched session check once per connection, whatever the keys', async () => {
      const sessions = await Promise.all(
        ['plan-a', 'plan-b', 'plan-c'].map((name) => liveSession(`${name}@hygie.test`)),
      );
      const hashes = sessions.map(({ token }) => hashToken(token));
      // The users seen, then ten turns of one check and ten of three: arities 1 and 4.
      await Promise.all(hashes.map((hash) => findSessionByTokenHash(t.ctx.db, hash)));
      for (let run = 0; run < 10; run++) {
        expect((await findSessionByTokenHash(t.ctx.db, hashes[0]!))?.user_id).toBe(
          sessions[0]?.userId,
        );
        const found = await Promise.all(
          hashes.map((hash) => findSessionByTokenHash(t.ctx.db, hash)),
        );
        expect(found.map((f) => f?.user_id)).toEqual(sessions.map((s) => s.userId));
      }
      // What the batches' connection keeps, read on that connection (a batched read of its own).
      type Kept = { statement: string; generic_plans: number; custom_plans: number };
      const plans = (arity: number): CompiledQuery<{ k: string; kept: Kept[] }> =>
        CompiledQuery.raw(
          `select $1::text as k, (select json_agg(p) from (select statement, generic_plans, custom_plans from pg_prepared_statements where statement like '%"sessions"."token_hash" in%') p) as kept${arity > 1 ? ` where $${arity}::text is not null` : ''}`,
          [],
        );
      const read = pooledBatchRead(t.ctx.db, plans, (row) => row.k);
      if (!read) throw new Error('no batched read on PostgreSQL');
      const kept = (await read('plans'))?.kept ?? [];
      // The statements of one key and of four, each run eleven times or more.
      // (An earlier test renamed these statements: their first names are prepared too, run less.)
      const ran = [' in ($1)', ' in ($1, $2, $3, $4)'].map((list) =>
        kept
          .filter((k) => k.statement.endsWith(`${list} ${KEPT_MARK}`))
          .sort((a, b) => b.generic_plans + b.custom_plans - (a.generic_plans + a.custom_plans))
          .at(0),
      );
      for (const statement of ran) {
        if (!statement) throw new Error(`not kept prepared: ${JSON.stringify(kept)}`);
        // Planned for its parameters the first five runs (PostgreSQL's rule), then never again.
        expect(statement.custom_plans, statement.statement).toBeLessThanOrEqual(5);
        expect(statement.generic_plans, statement.statement).toBeGreaterThanOrEqual(5);
      }
    });
});
