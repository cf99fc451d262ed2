// `npm run backup -- backup [FILE]` and `npm run backup -- restore FILE [--force]`: a consistent
// copy of the portal's database, and its restoration, for the database the server is configured
// with (the same environment: DATABASE_URL, else SQLite in DATA_DIR). docs/deployment.md.
//
// - SQLite: SQLite's online backup API (better-sqlite3), safe while the server runs. The database
//   is in WAL mode: the main file alone lacks what the write-ahead log still holds, so copying the
//   file is not a backup, and copying one over a database is not a restore.
// - PostgreSQL: pg_dump's custom format, restored by pg_restore in one transaction.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
// The server's own drivers (no dependency of this script's own).
const serverRequire = createRequire(path.join(root, 'apps', 'server', 'package.json'));
const SQLite = serverRequire('better-sqlite3');
const pg = serverRequire('pg');

const USAGE = `usage:
  npm run backup -- backup [FILE] [--env-file FILE]
  npm run backup -- restore FILE [--force] [--env-file FILE]

The database is the server's: DATABASE_URL (PostgreSQL), else DATA_DIR/hygie.sqlite (DATA_DIR
defaults to ./data), read from the environment, then from --env-file (the environment wins).
FILE defaults to hygie-<sqlite|postgres>-<UTC time>.sqlite or .pgdump.
restore writes into an empty database (a missing SQLite file, a PostgreSQL database without
tables); --force replaces a database that has tables — stop every node first.`;

class UsageError extends Error {}

/** The database the server would open with this environment (mirrors apps/server/src/config.ts). */
function configuredDatabase(env) {
  const url = env.DATABASE_URL || undefined;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new UsageError('DATABASE_URL must be a postgres:// URL');
    }
    return { kind: 'postgres', url };
  }
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return { kind: 'sqlite', file: path.join(dataDir, 'hygie.sqlite') };
}

function defaultFile(database) {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `hygie-${database.kind}-${stamp}.${database.kind === 'sqlite' ? 'sqlite' : 'pgdump'}`;
}

function temporaryNextTo(file) {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
}

/** A backup holds password hashes, the server secret and the signing keys: owner-only. */
function createPrivate(file) {
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, '', { mode: 0o600 });
}

/** Throws unless `db` is a sound Hygie database. */
function checkHygieDatabase(db, file) {
  const integrity = db.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') throw new Error(`${file}: integrity check failed: ${integrity}`);
  const migrations = db
    .prepare("select count(*) as n from sqlite_master where type = 'table' and name = ?")
    .get('kysely_migration');
  if (migrations.n !== 1) {
    throw new Error(`${file} is not a Hygie database (no kysely_migration table)`);
  }
}

/**
 * Sets the file's journal mode (DELETE: a backup is one self-contained file; WAL: as the server
 * runs it), then checks it.
 */
function settleSqliteFile(file, journalMode) {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma(`journal_mode = ${journalMode}`);
    checkHygieDatabase(db, file);
  } finally {
    db.close();
  }
}

async function backupSqlite(database, file) {
  if (!fs.existsSync(database.file)) throw new Error(`no database at ${database.file}`);
  const partial = temporaryNextTo(file);
  createPrivate(partial);
  try {
    // Read-only: the backup never writes to the live database. SQLite copies one consistent
    // state, the write-ahead log's pages included, and starts over if a write lands meanwhile.
    const source = new SQLite(database.file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(partial);
    } finally {
      source.close();
    }
    settleSqliteFile(partial, 'DELETE');
    fs.renameSync(partial, file);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

async function restoreSqlite(database, file, force) {
  if (!fs.existsSync(file)) throw new Error(`no backup at ${file}`);
  if (fs.existsSync(database.file) && !force) {
    throw new Error(
      `${database.file} exists: restore writes into a fresh DATA_DIR, or give --force (stop the server first)`,
    );
  }
  fs.mkdirSync(path.dirname(database.file), { recursive: true });
  // The backup API writes through SQLite into the target, which also settles the target's own
  // write-ahead log (a file copied over it would be mixed with the old log).
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    checkHygieDatabase(source, file);
    await source.backup(database.file);
  } finally {
    source.close();
  }
  settleSqliteFile(database.file, 'WAL');
}

/**
 * libpq's connection settings from the URL, the password passed in the environment rather than
 * on the command line (where `ps` would show it).
 */
function libpq(url) {
  const parsed = new URL(url);
  const env = { ...process.env };
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.href, env };
}

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (err) => {
      reject(
        err.code === 'ENOENT'
          ? new Error(
              `${command} is not installed: it comes with the PostgreSQL client (Debian: apt-get install postgresql-client), whose major version must be at least the server's`,
            )
          : err,
      );
    });
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}

async function backupPostgres(database, file) {
  const { dbname, env } = libpq(database.url);
  const partial = temporaryNextTo(file);
  createPrivate(partial);
  try {
    // One snapshot of the whole database (a repeatable-read transaction), in the compressed
    // custom format pg_restore reads.
    await run('pg_dump', ['--format=custom', '--file', partial, '--dbname', dbname], env);
    // A dump pg_restore cannot list is no backup.
    await run('pg_restore', ['--list', partial], env);
    fs.renameSync(partial, file);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

async function countTables(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as n from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

async function restorePostgres(database, file, force) {
  if (!fs.existsSync(file)) throw new Error(`no backup at ${file}`);
  const tables = await countTables(database.url);
  if (tables > 0 && !force) {
    throw new Error(
      `the database has ${tables} tables: restore writes into an empty database (createdb), or give --force to replace them (stop every node first)`,
    );
  }
  const { dbname, env } = libpq(database.url);
  await run(
    'pg_restore',
    [
      // All or nothing; objects owned by the role of DATABASE_URL, whatever role made the dump.
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      ...(tables > 0 ? ['--clean', '--if-exists'] : []),
      '--dbname',
      dbname,
      file,
    ],
    env,
  );
}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      'env-file': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, file, ...extra] = positionals;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (extra.length > 0) throw new UsageError(`unexpected: ${extra.join(' ')}`);
  // The server's environment file (systemd's EnvironmentFile), when not already in the environment.
  if (values['env-file']) process.loadEnvFile(values['env-file']);
  const database = configuredDatabase(process.env);
  if (command === 'backup') {
    const target = path.resolve(file ?? defaultFile(database));
    if (database.kind === 'sqlite') await backupSqlite(database, target);
    else await backupPostgres(database, target);
    process.stdout.write(`${target}\n`);
    return;
  }
  if (command === 'restore') {
    if (!file) throw new UsageError('restore needs the backup FILE');
    const source = path.resolve(file);
    if (database.kind === 'sqlite') await restoreSqlite(database, source, values.force);
    else await restorePostgres(database, source, values.force);
    process.stdout.write(
      `restored ${source} into ${database.kind === 'sqlite' ? database.file : 'the PostgreSQL database'}\n`,
    );
    return;
  }
  throw new UsageError(`unknown command: ${command ?? '(none)'}`);
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError || err?.code?.startsWith?.('ERR_PARSE_ARGS')) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
});
