import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CompiledQuery, KyselyConfig } from 'kysely';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

// bigint columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** Cheap round trip used by /api/ready. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL schema to use (tests isolate each app in its own). */
  searchPath?: string;
  /** Called with every statement the database runs, as sent (tests read the real queries' plans). */
  onQuery?: (query: CompiledQuery) => void;
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
    const pool = new pg.Pool({
      connectionString: database.url,
      max: database.poolMax,
      connectionTimeoutMillis: 5000,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    // An idle client losing its connection (database restart) must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    return {
      db,
      dialect: 'postgres',
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => db.destroy(),
    };
  }
  if (database.file !== ':memory:') fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    log,
  });
  return {
    db,
    dialect: 'sqlite',
    ping: () => {
      sqlite.prepare('select 1').get();
      return Promise.resolve();
    },
    close: () => db.destroy(),
  };
}

/**
 * Kysely prepares every query again; preparing costs more than running the hot-path lookup, so
 * statements are kept by SQL text (better-sqlite3 statements are reusable and run synchronously).
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value: unknown = Reflect.get(target, property, receiver);
        return value;
      }
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          statement = prepare(source);
          if (cache.size >= max) {
            const oldest = cache.keys().next();
            if (!oldest.done) cache.delete(oldest.value);
          }
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}
