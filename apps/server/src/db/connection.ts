import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Expression, KyselyConfig, SqliteDatabase } from 'kysely';
import { CompiledQuery, Kysely, PostgresAdapter, sql } from 'kysely';
import type { WalStats } from './checkpointer.js';
import { BACKSTOP_PAGES, checkpointInBackground } from './checkpointer.js';
import { isStalePreparedStatement } from './errors.js';
import { CurrentSchemaPostgresDialect } from './introspector.js';
import { ImmediateSqliteDialect } from './sqlite-dialect.js';
import { pipelineTransactions } from './transaction.js';
import type { Config } from '../config.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

/** PostgreSQL: the longest a statement may run before it is cancelled (DATABASE_STATEMENT_TIMEOUT_MS). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** PostgreSQL: the longest a request waits for a connection of the pool. */
const CONNECT_TIMEOUT_MS = 5_000;
/** SQLite: how long a writer waits for the file's lock before the request answers 503. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

// bigint columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Whether `db` (or a transaction of it) runs on PostgreSQL: row locks and advisory locks exist only there. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Holds the caller's transaction until it ends against every other transaction holding `key`, so
 * a check and the write it allows are one step: PostgreSQL takes a transaction-scoped advisory
 * lock; SQLite runs one transaction at a time on its one connection already.
 */
export async function lockUntilCommit(db: Db, key: string): Promise<void> {
  if (!isPostgres(db)) return;
  await db.executeQuery({ ...ADVISORY_LOCK, parameters: [key] });
}

/** lockUntilCommit's statement, compiled once (as `precompiled` statements are). */
const ADVISORY_LOCK = CompiledQuery.raw('select pg_advisory_xact_lock(hashtextextended($1, 0))');

/**
 * Rewrites the database after values were replaced in place (clear values sealed), so the old
 * ones do not linger in free pages: SQLite VACUUM; PostgreSQL VACUUM FULL of the tables named, on
 * the migrations' connection (no statement time-out). Copies made before (backups, WAL archives)
 * still hold them: docs/deployment.md.
 */
export async function reclaimReplacedValues(
  database: DbHandle,
  tables: readonly string[] = ['users'],
): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql`vacuum`.execute(database.db);
    return;
  }
  const own = database.openForMigrations?.();
  try {
    for (const table of tables) {
      await sql`vacuum full ${sql.table(table)}`.execute(own?.db ?? database.db);
    }
  } finally {
    await own?.close();
  }
}

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** Cheap round trip used by /api/ready. */
  ping(): Promise<void>;
  /**
   * PostgreSQL: a connection for migrations, without the statement time-out (a node may wait for
   * another node's migrations to finish, and a migration may take long); closed when done.
   */
  openForMigrations?: () => { db: Db; close: () => Promise<void> };
  /** PostgreSQL: the pool's connections now (metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** SQLite checkpointed in the background: what the last checkpoints found (metrics). */
  walStats?: () => WalStats | undefined;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL schema to use (tests isolate each app in its own). */
  searchPath?: string;
  /**
   * PostgreSQL: the connections wait for the disk at each commit (the default). Tests turn it off
   * (`synchronous_commit=off`): they need no commit to survive a crash of the database server.
   */
  waitForCommitOnDisk?: boolean;
  /** Called with every statement the database runs, as sent (tests read the real queries' plans). */
  onQuery?: (query: CompiledQuery) => void;
  /**
   * SQLite: checkpoint the WAL on the process's checkpointing thread instead of in the commits of
   * the event loop (db/checkpointer.ts), every `checkpointEveryMs` (default 1 s). The server
   * asks for it; short-lived commands do not.
   */
  checkpointInBackground?: boolean;
  checkpointEveryMs?: number;
}

/** Opens the configured database: SQLite (WAL) in DATA_DIR by default, PostgreSQL when DATABASE_URL is set. */
export function openDatabase(database: Config['database'], options: OpenOptions = {}): DbHandle {
  const { onQuery } = options;
  const log: KyselyConfig['log'] = onQuery
    ? (event) => {
        if (event.level === 'query') onQuery(event.query);
      }
    : undefined;
  if (database.kind === 'postgres') {
    const timeout = database.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const settings = [
      ...(options.searchPath ? [`-c search_path=${options.searchPath}`] : []),
      ...(options.waitForCommitOnDisk === false ? ['-c synchronous_commit=off'] : []),
    ].join(' ');
    const pool = new pg.Pool({
      connectionString: database.url,
      max: database.poolMax,
      // A database that does not answer must not hold requests: waiting for a connection, a
      // statement, or a transaction left idle are all bounded, and each failure answers 503.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: timeout,
      keepAlive: true,
      idle_in_transaction_session_timeout: timeout * 3,
      // A statement is written at once, not after the answer to the one before: what lets a
      // transaction send statements together (db/transaction.ts). One at a time, as everything
      // else sends them, nothing changes.
      pipeline: true,
      ...(settings ? { options: settings } : {}),
    });
    // A client losing its connection (database restart, connections killed, network cut) must not
    // crash the process: idle ones are reported on the pool, checked-out ones on the client
    // itself (pg-pool listens only while a client is idle). The statement in flight, or the next
    // one, fails instead — a 503 — and the pool replaces the client.
    pool.on('error', () => {});
    const prepared = new KeptStatements();
    pool.on('connect', (client) => {
      client.on('error', () => {});
      nameKeptStatements(client, prepared);
    });
    const dialect = new CurrentSchemaPostgresDialect({ pool });
    const config: KyselyConfig = { dialect, log };
    const db = new Kysely<Database>(config);
    pipelineTransactions(db, pool, { config, dialect }, onQuery);
    const reader = openPooledReader(pool, prepared, onQuery);
    pooledReaders.set(db, reader);
    const openForMigrations = () => {
      const single = new pg.Pool({
        connectionString: database.url,
        max: 1,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        ...(settings ? { options: settings } : {}),
      });
      single.on('error', () => {});
      single.on('connect', (client) => client.on('error', () => {}));
      const migrations = new Kysely<Database>({
        dialect: new CurrentSchemaPostgresDialect({ pool: single }),
      });
      return { db: migrations, close: () => migrations.destroy() };
    };
    return {
      db,
      dialect: 'postgres',
      openForMigrations,
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        await reader.close();
        await db.destroy();
      },
    };
  }
  if (database.file !== ':memory:') fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
    log,
  });
  // An in-memory database is private to its connection: a second one would see another database.
  const reader =
    database.file === ':memory:' ? null : openCommittedReader(database.file, sqlite, onQuery);
  if (reader) committedReaders.set(db, reader);
  const checkpoints =
    options.checkpointInBackground && database.file !== ':memory:'
      ? checkpointInBackground(database.file, options.checkpointEveryMs)
      : null;
  // Taken by the worker: the writer's own checkpoint is only a backstop from then on.
  void checkpoints?.ready.then((taken) => {
    if (taken && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  });
  return {
    db,
    dialect: 'sqlite',
    ...(checkpoints ? { walStats: () => checkpoints.stats() } : {}),
    ping: () => {
      sqlite.prepare('select 1').get();
      return Promise.resolve();
    },
    close: async () => {
      // The worker's connection first: the writer's, closed last, checkpoints and removes the WAL.
      await checkpoints?.stop();
      await db.destroy();
      reader?.close();
    },
  };
}

/** A prepared read of committed rows, run synchronously: the first row, or undefined. */
export type CommittedRead<R> = (parameters: readonly unknown[]) => R | undefined;

interface CommittedReader {
  prepare<R>(query: CompiledQuery<R>): CommittedRead<R>;
  close(): void;
}

const committedReaders = new WeakMap<Db, CommittedReader>();

/**
 * SQLite: a second connection of the database file, read-only, for the hottest lookups (the
 * session check). Kysely runs every statement of the process through one connection and a queue;
 * a lookup waited there behind promise hops and any transaction in progress, for a read that
 * takes a few microseconds. In WAL mode a reader sees exactly the transactions committed when its
 * read transaction starts, never one in progress: what another request would see through the
 * queue after that transaction ends. Statements are prepared once, by the caller, and logged like
 * any other (tests count them and explain their plans); the snapshot's own `begin` and `commit`
 * are not logged.
 */
function openCommittedReader(
  file: string,
  writer: SQLite.Database,
  onQuery: OpenOptions['onQuery'],
): CommittedReader {
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  reader.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const snapshot = turnSnapshot(reader, writer);
  return {
    prepare: <R>(query: CompiledQuery<R>): CommittedRead<R> => {
      const statement = reader.prepare<unknown[], R>(query.sql);
      return (parameters) => {
        onQuery?.({ ...query, parameters });
        snapshot.enter();
        return statement.get(...parameters);
      };
    },
    close: () => {
      snapshot.end();
      reader.close();
    },
  };
}

/**
 * SQLite: one read transaction for the committed reads of a turn of the event loop, ended when
 * the turn ends (`setImmediate`). Starting and ending a read transaction in WAL mode (the shared
 * memory's read lock, two `fcntl` calls, and the check of the WAL's header) costs several times
 * the indexed lookup it surrounds: the session checks of the requests read in one turn share it.
 *
 * A read must still see every write this process committed before it, even one made earlier in
 * the same turn (a sign-out, then a request that used the session): the snapshot is kept only
 * while the writing connection has changed no row since it began (`total_changes()` counts every
 * row inserted, updated or deleted on that connection, by triggers and cascades included), and
 * never when it began while the writer was inside a transaction (whose commit would change no
 * count). A commit by another process (a command such as `user:lock`) is seen from the next turn
 * on: at most the turn's length later than without the snapshot.
 */
function turnSnapshot(reader: SQLite.Database, writer: SQLite.Database) {
  const begin = reader.prepare('begin');
  const commit = reader.prepare('commit');
  const writerChanges = writer.prepare<[], number>('select total_changes()').pluck();
  let open = false;
  let reusable = false;
  let changesAtStart = 0;
  let endScheduled = false;
  const end = () => {
    if (open && reader.open && reader.inTransaction) commit.run();
    open = false;
  };
  const endOfTurn = () => {
    endScheduled = false;
    end();
  };
  return {
    /** Before a read: the turn's snapshot, or a new one if the writer changed rows since. */
    enter(): void {
      const changes = writerChanges.get() ?? 0;
      if (open && reusable && changes === changesAtStart) return;
      end();
      begin.run();
      open = true;
      reusable = !writer.inTransaction;
      changesAtStart = changes;
      if (!endScheduled) {
        endScheduled = true;
        setImmediate(endOfTurn);
      }
    },
    end,
  };
}

/**
 * The read of committed rows `query` describes, prepared on `db`'s read-only connection: SQLite
 * only, and only for the database itself (a transaction or a single connection of it must see its
 * own writes: it goes through Kysely). Undefined where there is none.
 */
export function committedRead<R>(db: Db, query: CompiledQuery<R>): CommittedRead<R> | undefined {
  return committedReaders.get(db)?.prepare(query);
}

/**
 * Kysely prepares every query again; preparing costs more than running the hot-path lookup, so
 * statements are kept by SQL text (better-sqlite3 statements are reusable and run synchronously).
 * The dialect is handed only what it uses of the connection (a proxy of the whole connection cost
 * a trap on every property read of every statement).
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      sqlite.close();
    },
    prepare: (source: string) => {
      let statement = cache.get(source);
      if (!statement) {
        statement = sqlite.prepare(source);
        if (cache.size >= max) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        cache.set(source, statement);
      }
      return statement;
    },
  };
}

/** A prepared read run on the pool itself: the first row, or undefined. */
export type PooledRead<R> = (parameters: readonly unknown[]) => Promise<R | undefined>;

/** A read of the row with a key, batched with the other reads of the same turn of the event loop. */
export type BatchedRead<R> = (key: string) => Promise<R | undefined>;

interface PooledReader {
  prepare<R>(query: CompiledQuery<R>): PooledRead<R>;
  batch<R>(queryFor: BatchQuery<R>, keyOf: (row: R) => string): BatchedRead<R>;
  /** Gives the held connection back to the pool (before the pool ends). */
  close(): Promise<void>;
}

/**
 * One connection of the pool kept for the batched reads (the session checks). The pool runs its
 * connections in pipeline mode, so a batch is written at once even while the one before is still
 * answered, and answers that arrive together are read together: 14 µs of the process's CPU a
 * statement against 22 through the pool, which checks a connection out and back for each (ten
 * readers at once, one-row statements). A connection that breaks (the database restarted, the
 * connection killed) is given back as broken and the next batch takes another: the batches it
 * carried fail, as they would have on any connection.
 */
class HeldConnection {
  private client: Promise<pg.PoolClient> | null = null;
  private closed = false;

  constructor(private readonly pool: pg.Pool) {}

  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    // A pool of one connection keeps it for everything else.
    if (this.closed || (this.pool.options.max ?? 10) < 2) return this.pool.query<R>(config);
    this.client ??= this.acquire();
    return this.client.then((client) => client.query<R>(config));
  }

  private acquire(): Promise<pg.PoolClient> {
    const acquired = this.pool.connect();
    acquired.then(
      (client) => {
        const broken = (err?: Error) => {
          if (this.client !== acquired) return;
          this.client = null;
          client.release(err ?? true);
        };
        client.once('error', broken);
        client.once('end', () => broken());
      },
      () => {
        if (this.client === acquired) this.client = null;
      },
    );
    return acquired;
  }

  async close(): Promise<void> {
    this.closed = true;
    const held = this.client;
    this.client = null;
    const client = await held?.catch(() => null);
    client?.release();
  }
}

/** The most keys one batched statement carries; more go in further statements. */
const MAX_BATCH = 64;

/**
 * The number of keys a batch of `count` is sent with: the next power of two (at most MAX_BATCH),
 * the last key repeated to fill it. Each arity is a statement of its own with that many
 * parameters, which PostgreSQL plans once per connection: a single statement taking the keys as
 * one array (`= any($1)`) was planned again at every run, because the plan kept for any array
 * (costed for ten keys) never looked cheaper than one made for the keys at hand — about 70 µs of
 * the database's CPU a batch on the 2-core machines the benchmarks ran on (bench/me.mjs), more
 * than the lookup itself.
 */
export function batchArity(count: number): number {
  let arity = 1;
  while (arity < count && arity < MAX_BATCH) arity *= 2;
  return arity;
}

/**
 * The statement of a batched read for `arity` keys, its parameters the keys in order (`in ($1,
 * …, $n)`, or `= $1` for one).
 */
export type BatchQuery<R> = (arity: number) => CompiledQuery<R>;

const pooledReaders = new WeakMap<Db, PooledReader>();

/**
 * PostgreSQL: the hottest lookups (the session check) sent on the pool directly, as a statement
 * kept prepared under its name, instead of through Kysely's executor (a connection provider, a
 * result transformation and several promise hops around the same pool): 2 to 7 µs less CPU per
 * lookup of about 50. The same pool, the same connections, the same type parsers and timeouts;
 * logged like any other statement (tests count them and explain their plans).
 */
function openPooledReader(
  pool: pg.Pool,
  kept: KeptStatements,
  onQuery: OpenOptions['onQuery'],
): PooledReader {
  const held = new HeldConnection(pool);
  /**
   * Runs `text` under its kept name; once more, under a new name, when the connection's prepared
   * statement is stale (the schema changed since it was prepared): a read, safe to run again.
   */
  const run = async <R extends pg.QueryResultRow>(
    send: (config: pg.QueryConfig) => Promise<pg.QueryResult<R>>,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> => {
    const name = kept.nameOf(text);
    try {
      return await send({ name, text, values });
    } catch (err) {
      if (!kept.renewIfStale(text, name, err)) throw err;
      return send({ name: kept.nameOf(text), text, values });
    }
  };
  return {
    close: () => held.close(),
    prepare: <R>(query: CompiledQuery<R>): PooledRead<R> => {
      kept.keep(query.sql);
      return async (parameters) => {
        onQuery?.({ ...query, parameters });
        const result = await run<R & pg.QueryResultRow>((config) => pool.query(config), query.sql, [
          ...parameters,
        ]);
        return result.rows[0];
      };
    },
    batch: <R>(queryFor: BatchQuery<R>, keyOf: (row: R) => string): BatchedRead<R> => {
      const queries = new Map<number, CompiledQuery<R>>();
      const queryOf = (arity: number) => {
        let query = queries.get(arity);
        if (!query) {
          query = queryFor(arity);
          kept.keep(query.sql);
          queries.set(arity, query);
        }
        return query;
      };
      type Waiting = { resolve: (row: R | undefined) => void; reject: (err: unknown) => void };
      let pending: Map<string, Waiting[]> | null = null;
      const send = (batch: Map<string, Waiting[]>) => {
        // Whatever goes wrong fails every check of the batch (a check already answered stays so).
        const fail = (err: unknown) => {
          for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
        };
        const answer = (result: pg.QueryResult<R & pg.QueryResultRow>) => {
          const rows = new Map<string, R>();
          for (const row of result.rows) rows.set(keyOf(row), row);
          for (const [key, waiting] of batch) for (const w of waiting) w.resolve(rows.get(key));
        };
        try {
          const keys = [...batch.keys()];
          const arity = batchArity(keys.length);
          const query = queryOf(arity);
          const values = Array.from(
            { length: arity },
            (_, i) => keys[Math.min(i, keys.length - 1)],
          );
          onQuery?.({ ...query, parameters: values });
          run<R & pg.QueryResultRow>((config) => held.query(config), query.sql, values)
            .then(answer)
            .catch(fail);
        } catch (err) {
          fail(err);
        }
      };
      const flush = () => {
        const all = pending;
        pending = null;
        if (!all) return;
        let batch = new Map<string, Waiting[]>();
        for (const [key, waiting] of all) {
          batch.set(key, waiting);
          if (batch.size === MAX_BATCH) {
            send(batch);
            batch = new Map();
          }
        }
        if (batch.size > 0) send(batch);
      };
      return (key) =>
        new Promise<R | undefined>((resolve, reject) => {
          if (!pending) {
            pending = new Map();
            // After the requests this turn of the event loop reads: each is in the statement sent
            // then, which starts after it came in (no read older than the request).
            setImmediate(flush);
          }
          const waiting = pending.get(key);
          if (waiting) waiting.push({ resolve, reject });
          else pending.set(key, [{ resolve, reject }]);
        });
    },
  };
}

/**
 * The read `query` describes, run on `db`'s pool directly and kept prepared on each connection:
 * PostgreSQL only, and only for the database itself (a transaction or a single connection goes
 * through Kysely, on its own connection). Undefined where there is none.
 */
export function pooledRead<R>(db: Db, query: CompiledQuery<R>): PooledRead<R> | undefined {
  return pooledReaders.get(db)?.prepare(query);
}

/**
 * The read of one row by key that `queryFor` describes (the statement for a number of keys, see
 * `batchArity`), on `db`'s pool directly, kept prepared like `pooledRead`: the keys asked for
 * during one turn of the event loop go in one statement (`keyOf` tells each row's key), sent once
 * that turn's requests are read. Under load, concurrent session checks share a round trip.
 * PostgreSQL only, for the database itself; undefined elsewhere.
 */
export function pooledBatchRead<R>(
  db: Db,
  queryFor: BatchQuery<R>,
  keyOf: (row: R) => string,
): BatchedRead<R> | undefined {
  return pooledReaders.get(db)?.batch(queryFor, keyOf);
}

/**
 * The most statements a PostgreSQL database keeps prepared on each connection (each holds its
 * parse tree and plan in the connection's backend). The hot paths mark about fifty.
 */
export const MAX_KEPT_STATEMENTS = 256;

/**
 * The SQL texts a PostgreSQL database keeps prepared on each connection, each under a name. A
 * migration that changes what a kept statement returns (a column's type or collation, as 0026 did
 * to `users.email`) makes PostgreSQL refuse it on every connection that prepared it before, at
 * every run, for as long as the connection lives ("cached plan must not change result type"): on
 * a node serving while another migrated, the session checks that read their user failed. The
 * text is then given a new name, which each connection prepares afresh at its next run.
 */
class KeptStatements {
  private readonly names = new Map<string, string>();
  private named = 0;

  /**
   * Keeps `text` prepared from now on, unless MAX_KEPT_STATEMENTS are kept already: then it runs
   * unnamed, as any other statement (a mark put by mistake on a statement whose text varies
   * without end would otherwise grow every connection's memory without end).
   */
  keep(text: string): void {
    if (!this.names.has(text) && this.names.size < MAX_KEPT_STATEMENTS) {
      this.names.set(text, this.nextName());
    }
  }

  /** The name `text` is prepared under, if it is kept. */
  nameOf(text: string): string | undefined {
    return this.names.get(text);
  }

  /**
   * Whether `err` says the statement prepared as `name` is stale; then `text` gets a new name
   * (once, however many runs under the old one fail together).
   */
  renewIfStale(text: string, name: string | undefined, err: unknown): boolean {
    if (name === undefined || !isStalePreparedStatement(err)) return false;
    if (this.names.get(text) === name) this.names.set(text, this.nextName());
    return true;
  }

  private nextName(): string {
    this.named++;
    return `hygie_kept_${this.named}`;
  }
}

/** The comment `kept` ends a statement with: PostgreSQL's connections keep it prepared. */
export const KEPT_MARK = '/* kept */';

/**
 * Marks a statement of a hot path to be kept prepared on each PostgreSQL connection (a named
 * prepared statement) from its first run there: parsed and planned once per connection instead of
 * at every run — about half the session check's round trip, a third of the database's CPU for a
 * password sign-in's statements, on the 2-core machines the benchmarks ran on. Each name lives on
 * every connection for its lifetime: for statements of fixed text whose plan is the same whatever
 * their parameters (a row by its key, an insert, an update by key). PostgreSQL keeps one plan for
 * all parameters once five runs showed it no costlier, and db/hot-path-plans.test.ts checks that
 * the plan it keeps for each marked statement of the journeys reads through an index. Never for a
 * search or a list, whose best plan depends on the values (a prefix, a filter). The mark is a
 * comment, the same text on SQLite, which keeps every statement prepared already.
 */
export function kept<Q extends { modifyEnd(modifier: Expression<unknown>): Q }>(query: Q): Q {
  return query.modifyEnd(sql.raw(KEPT_MARK));
}

/** The name of a statement marked by `kept`, kept from now on; undefined for any other. */
function markedName(kept: KeptStatements, text: string): string | undefined {
  if (!text.endsWith(KEPT_MARK)) return undefined;
  kept.keep(text);
  return kept.nameOf(text);
}

/**
 * Makes a pool client send the kept statements under their names (Kysely sends text and values).
 * A stale one is not run again here — it fails the transaction it is in, which answers 503 (db/
 * errors.ts) — but its next run, on any connection, prepares it anew.
 */
function nameKeptStatements(client: pg.PoolClient, kept: KeptStatements): void {
  const query: unknown = Reflect.get(client, 'query');
  if (typeof query !== 'function') return;
  Object.defineProperty(client, 'query', {
    configurable: true,
    value: (...args: unknown[]): unknown => {
      const [text, values] = args;
      const name =
        typeof text === 'string' ? (kept.nameOf(text) ?? markedName(kept, text)) : undefined;
      if (typeof text !== 'string' || name === undefined) return Reflect.apply(query, client, args);
      const result: unknown = Reflect.apply(query, client, [{ name, text, values }]);
      if (result instanceof Promise) {
        result.catch((err: unknown) => kept.renewIfStale(text, name, err));
      }
      return result;
    },
  });
}
