import type pg from 'pg';
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect as KyselyDialect,
  Driver,
  KyselyConfig,
  QueryResult,
} from 'kysely';
import { CompiledQuery as Compiled, Kysely, sql } from 'kysely';
import type { Db } from './connection.js';
import type { Database } from './schema.js';

/**
 * A transaction's value once `fn` has resolved and its `commit` is sent, and `committed`: settled
 * with the commit's answer (rejected when the transaction could not be committed, nothing of it
 * kept).
 */
export interface Committing<T> {
  value: T;
  committed: Promise<void>;
}

/** Runs `fn` in one transaction of the database; resolves once its `commit` is sent. */
type TransactionRunner = <T>(fn: (trx: Db) => Promise<T>) => Promise<Committing<T>>;

const runners = new WeakMap<Db, TransactionRunner>();

/**
 * Runs `fn` in one transaction of `db`: committed when `fn` resolves, rolled back when it throws
 * (the error is rethrown). On PostgreSQL the transaction's statements are pipelined on its
 * connection (`pipelineTransactions`): `begin` goes with the first statement, and statements `fn`
 * starts together (`Promise.all`) go together, in the order they were started, without waiting for
 * each other's answers. On SQLite, Kysely's transaction (`begin immediate`), its statements one at
 * a time as ever. `db` must be the database itself: a transaction does not begin another.
 */
export async function transaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  const run = runners.get(db);
  if (!run) return db.transaction().execute(fn);
  const { value, committed } = await run(fn);
  await committed;
  return value;
}

/**
 * As `transaction`, but resolves as soon as `fn` has resolved and `commit` is sent, before its
 * answer: what depends on the transaction's statements' answers alone may start while the commit
 * makes them durable (on PostgreSQL, a round trip and the write-ahead log's flush). Whatever
 * depends on the transaction being kept must wait for `committed`. On SQLite the commit is done
 * when it resolves.
 */
export async function transactionCommitting<T>(
  db: Db,
  fn: (trx: Db) => Promise<T>,
): Promise<Committing<T>> {
  const run = runners.get(db);
  if (run) return run(fn);
  return { value: await db.transaction().execute(fn), committed: Promise.resolve() };
}

/**
 * PostgreSQL: whether `db` is the database itself, whose statements each commit alone, rather than
 * one of its transactions (`transaction`'s, or Kysely's own).
 */
export function isDatabaseItself(db: Db): boolean {
  return runners.has(db);
}

/**
 * PostgreSQL: a condition, always true, that makes the transaction it is evaluated in commit
 * without waiting for its write-ahead log to reach the disk (`synchronous_commit` off for that
 * transaction alone: `set_config(…, true)`; PostgreSQL reads the setting when it commits). What it
 * wrote is seen by every other transaction at once, as any commit; a crash of the database server
 * in the next few hundred milliseconds (three times `wal_writer_delay` at most) may lose it, and
 * so may a fail-over to a standby. Any later commit that waits for the disk makes it durable too:
 * the log is flushed in order. SQLite's commits are all of that kind (`synchronous = NORMAL`).
 * Only for a statement that commits alone (`isDatabaseItself`): in a transaction it would make the
 * whole transaction's commit so.
 */
export const commitsWithoutDiskWait = sql<boolean>`(set_config('synchronous_commit', 'off', true) = 'off')`;

/** What building the database's Kysely took: its configuration and dialect. */
export interface KyselyParts {
  config: KyselyConfig;
  dialect: KyselyDialect;
}

/**
 * PostgreSQL: the database's transactions pipelined (`transaction`). Each checks a connection out
 * of `pool` (whose clients run in node-postgres's pipeline mode: a statement is written at once,
 * its answer matched in order) and runs `fn` against a Kysely of its own, bound to that connection
 * alone and unlike Kysely's own transactions not holding a statement back until the one before
 * it is answered. So a statement's round trip is shared by `begin`, and by every statement `fn`
 * starts before awaiting: a sign-in's writes after its hash take three round trips, not seven.
 * The statements started together also go to the socket in one write (`writeTogether`).
 *
 * What stays as in any transaction: the statements run in the order they were started, on one
 * connection, inside `begin` … `commit`; the first that fails makes PostgreSQL refuse the rest
 * (`current transaction is aborted`), so `fn` fails with the first error and everything is rolled
 * back; a `commit` PostgreSQL answers as a rollback (an error `fn` caught) fails the transaction.
 * A statement started after another's answer waits for it, as before. Logged like every statement
 * (`onQuery`): `begin`, each statement, then `commit` or `rollback`.
 */
export function pipelineTransactions(
  db: Db,
  pool: pg.Pool,
  parts: KyselyParts,
  onQuery: ((query: CompiledQuery) => void) | undefined,
): void {
  const executor = db.getExecutor();
  /** `query` sent on `client` at once, with whatever else is sent on it in this microtask. */
  const sendOn =
    (client: pg.PoolClient) =>
    <R>(query: CompiledQuery): Promise<pg.QueryResult<R & pg.QueryResultRow>> => {
      onQuery?.(query);
      writeTogether(client);
      return client.query<R & pg.QueryResultRow>(query.sql, [...query.parameters]);
    };
  /** A Kysely whose statements all go to `connection`. */
  const boundTo = (connection: DatabaseConnection): Db =>
    new Kysely<Database>({
      ...parts,
      driver: NO_NESTED_TRANSACTION,
      executor: executor.withConnectionProvider({
        provideConnection: (consumer) => consumer(connection),
      }),
    });
  const run = async <T>(fn: (trx: Db) => Promise<T>): Promise<Committing<T>> => {
    const client = await pool.connect();
    const send = sendOn(client);
    // Not awaited: the first statement goes right behind it. Each statement also waits for it, so
    // a failed `begin` fails the statements rather than leave them outside a transaction unseen.
    const begun = send(BEGIN);
    begun.catch(() => undefined);
    const connection: DatabaseConnection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        // Both awaited together: when `begin` fails the statement's own failure is handled too.
        const [, answer] = await Promise.all([begun, send<R>(query)]);
        return resultOf(answer);
      },
      streamQuery: () => {
        throw new Error('a pipelined transaction does not stream');
      },
    };
    const trx = boundTo(connection);
    // Behind whatever is still in flight: its answers come first, then the rollback's.
    const rollBack = () =>
      send(ROLLBACK).then(
        () => client.release(),
        (failure: unknown) => client.release(failure instanceof Error ? failure : true),
      );
    let value: T;
    try {
      value = await fn(trx);
      await begun;
    } catch (err) {
      await rollBack();
      throw err;
    }
    const committed = send(COMMIT).then(
      (answer) => {
        client.release();
        // PostgreSQL ends a transaction that a failed statement aborted with ROLLBACK, not an error.
        if (answer.command === 'ROLLBACK') throw new Error('the transaction was rolled back');
      },
      async (err: unknown) => {
        await rollBack();
        throw err;
      },
    );
    // Whoever holds it handles its failure; not unhandled meanwhile.
    committed.catch(() => undefined);
    return { value, committed };
  };
  runners.set(db, run);
  togetherRunners.set(db, async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    const send = sendOn(client);
    const sent: Promise<unknown>[] = [];
    let done = false;
    const connection: DatabaseConnection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        if (done) throw new Error('a statement sent together was started after its turn ended');
        const answer = send<R>(query);
        sent.push(answer);
        return resultOf(await answer);
      },
      streamQuery: () => {
        throw new Error('statements sent together do not stream');
      },
    };
    try {
      return await fn(boundTo(connection));
    } finally {
      done = true;
      // Given back once every statement sent on it is answered (none is left to its next user),
      // without holding up `fn`'s value: an answer `fn` did not wait for still comes. A connection
      // that broke is no longer queryable, and the pool drops it.
      void Promise.allSettled(sent).then(() => client.release());
    }
  });
}

/** Runs `fn` on one connection of the database's, whose statements each commit alone. */
type TogetherRunner = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;

const togetherRunners = new WeakMap<Db, TogetherRunner>();

/**
 * Runs `fn` against one connection of `db` (PostgreSQL): the statements `fn` starts together
 * (`Promise.all`) are written to the database in one write, and answered in one read, where each
 * would otherwise go on a connection of its own, in a write of its own (on these virtual
 * machines, a system call that wakes the database's process: about 150 µs of the event loop's
 * time). Each statement commits alone, as outside a transaction: for reads that need no common
 * snapshot, or writes that need no common fate. No statement that may wait for a lock: the
 * others behind it would wait too. Every statement must be started before `fn` resolves (one that
 * reaches the connection later fails); `fn` may resolve before all are answered, and return
 * their promises. On SQLite, `fn` runs on `db` itself.
 */
export function together<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  const run = togetherRunners.get(db);
  return run ? run(fn) : fn(db);
}

/** The connections whose socket holds its writes until the next microtask (`writeTogether`). */
const held = new WeakSet<pg.PoolClient>();

/**
 * Holds what is written to `client`'s socket until the microtasks queued so far have run: the
 * statements a transaction starts together (`Promise.all`) reach node-postgres one promise
 * callback after the other, each a step of its own chain, and each was its own system call
 * (`writev`), which on a virtual machine costs more than building the statement. Corked, they go
 * in one. The uncork is a microtask queued behind the first statement's step, so it runs once the
 * others' steps of the same depth have sent theirs, and before anything of a later turn: no
 * statement waits for other work to be written (`process.nextTick` would wait for every microtask
 * of the turn). A statement that comes later goes in a write of its own, as before.
 */
function writeTogether(client: pg.PoolClient): void {
  if (held.has(client)) return;
  const { stream } = client.connection;
  held.add(client);
  stream.cork();
  queueMicrotask(() => {
    held.delete(client);
    stream.uncork();
  });
}

const BEGIN = Compiled.raw('begin');
const COMMIT = Compiled.raw('commit');
const ROLLBACK = Compiled.raw('rollback');

/** Kysely's result of a node-postgres answer, as its own PostgreSQL driver makes it. */
function resultOf<R>(answer: pg.QueryResult<R & pg.QueryResultRow>): QueryResult<R> {
  const { command, rowCount, rows } = answer;
  const writes =
    command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return writes && rowCount !== null ? { rows, numAffectedRows: BigInt(rowCount) } : { rows };
}

/** The driver of a transaction's Kysely: it has its one connection and begins nothing else. */
const NO_NESTED_TRANSACTION: Driver = {
  init: () => Promise.resolve(),
  acquireConnection: () => Promise.reject(new Error('a transaction does not begin another')),
  beginTransaction: () => Promise.reject(new Error('a transaction does not begin another')),
  commitTransaction: () => Promise.resolve(),
  rollbackTransaction: () => Promise.resolve(),
  releaseConnection: () => Promise.resolve(),
  destroy: () => Promise.resolve(),
};
