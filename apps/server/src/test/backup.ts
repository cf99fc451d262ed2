import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import type { DbHandle, Dialect } from '../db/connection.js';
import { openDatabase } from '../db/connection.js';
import { randomToken } from '../lib/tokens.js';
import type { TestApp, TestClock } from './helpers.js';
import { TEST_DATABASE_URL } from './helpers.js';
import { QueryLog } from './query-log.js';

// scripts/backup.mjs as the backup tests run it: on a database of its own (a new DATA_DIR, or a
// new PostgreSQL database), with the whole app started on it as the server builds it.

const script = path.join(import.meta.dirname, '..', '..', '..', '..', 'scripts', 'backup.mjs');

/** `npm run backup -- …` with the server's environment for one database. */
export function backupScript(env: Record<string, string>, ...args: string[]) {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  return spawnSync(process.execPath, [script, ...args], {
    env: { ...inherited, ...env },
    encoding: 'utf8',
  });
}

export interface FreshDatabase {
  /** The server's environment for it: DATA_DIR (SQLite) or DATABASE_URL (PostgreSQL). */
  env: Record<string, string>;
  open: () => DbHandle;
  sqliteFile?: string;
  drop: () => Promise<void>;
}

/** A database of its own: a new DATA_DIR, or a new PostgreSQL database (not a schema). */
export async function freshDatabase(dialect: Dialect): Promise<FreshDatabase> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-backup-'));
    const file = path.join(dir, 'hygie.sqlite');
    return {
      env: { DATA_DIR: dir },
      open: () => openDatabase({ kind: 'sqlite', file }),
      sqliteFile: file,
      drop: () => fs.promises.rm(dir, { recursive: true, force: true }),
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `hygie_backup_${randomToken(9)
    .replace(/[^a-zA-Z0-9]/g, '')
    .toLowerCase()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href },
    open: () => openDatabase({ kind: 'postgres', url: url.href, poolMax: 5 }),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** The whole app on `database`, as the server builds it, with the test helpers' handles. */
export async function startPortal(
  dialect: Dialect,
  database: FreshDatabase,
  config: Config,
  clock: TestClock,
): Promise<TestApp> {
  const built = await buildApp(config, { database: database.open(), clock, logger: false });
  return {
    ...built,
    clock,
    dialect,
    queries: new QueryLog(),
    reopenDatabase: database.open,
    close: () => built.app.close(),
  };
}

const count = z.object({ n: z.coerce.number() });

/** Every table's row count, and the settings (server secret, signing keys, terms). */
export async function contents(handle: DbHandle) {
  const tables = (await handle.db.introspection.getTables({ withInternalKyselyTables: true }))
    .map((t) => t.name)
    .sort();
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const result = await sql`select count(*) as n from ${sql.table(table)}`.execute(handle.db);
    rows[table] = count.parse(result.rows[0]).n;
  }
  const settings = await handle.db
    .selectFrom('settings')
    .select(['key', 'value'])
    .orderBy('key')
    .execute();
  return { rows, settings };
}
