// What the scale benchmarks share (search.mjs: the admin search over the accounts; lists.mjs: the
// operator's lists over the audit trail and the message queue): for each database of
// BENCH_DATABASES (default sqlite,postgres) and each size of BENCH_SIZES (default 1,000, 100,000
// and 1,000,000 rows), a fresh database with the server's own migrations, seeded (SQLite: one
// transaction of prepared statements, left without statistics as the portal keeps it;
// PostgreSQL: batches of rows sent as arrays and unnested, then VACUUM ANALYZE and CHECKPOINT),
// the built server started on it, and each case's latency measured one request at a time, with
// GET /api/me as the baseline of the same run. Prints, per database, p95 and p50 per size, the
// ratio of each case's figure at the largest size to the smallest's (flat: ≤ 1.5), and the case
// ÷ /api/me. The PostgreSQL rows are skipped, and say so, when BENCH_DATABASE_URL does not
// answer (bench/portal.mjs).
//
// BENCH_SERVER_DIR runs another build of the server (a dist/ built from an earlier commit) against
// the same seed, to compare before and after on one machine in one sitting.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { createPostgresDatabase, freePort, POSTGRES_URL, postgresAvailable } from './portal.mjs';
import { signInAdmin } from './sign-in.mjs';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_DIR = path.resolve(process.env.BENCH_SERVER_DIR ?? path.join(root, 'apps/server'));
const SIZES = (process.env.BENCH_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',');
/** Rows per INSERT on PostgreSQL (each column sent as one array parameter). */
const PG_BATCH = 5000;
/** Requests per case at most, and the time a case may take (at least MIN_SAMPLES are sent). */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const CASE_SECONDS = Number(process.env.BENCH_CASE_SECONDS ?? 6);
const MIN_SAMPLES = 10;
/** Requests to each case before any case is measured. */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 100);
/** The deep page measured, reached by following nextCursor (page 200 of 20: the 4,000th row). */
export const DEEP_PAGE = Number(process.env.BENCH_DEEP_PAGE ?? 200);
const ADMIN = { email: 'bench@hygie.test', password: 'Steady-Lamp-4821' };
/** The data keys of the bench's servers: the seeds compute blind indexes with INDEX_KEY. */
export const INDEX_KEY = randomBytes(32);
const DATA_KEY = randomBytes(32);
/** The bearer token of the bench servers' /metrics. */
export const METRICS_TOKEN = randomBytes(24).toString('base64url');
const BASELINE = 'GET /api/me (baseline)';

/**
 * What a seed writes into one table: `count` rows, row `i` given by `row(i)` as the values of
 * `columns` in order, beside `constants` (SQL literals, the same for every row). `pgTypes` names
 * the PostgreSQL type of a column's array parameter (text by default). Columns the measured build
 * does not have yet are left out (BENCH_SERVER_DIR: an earlier build).
 */
function existingColumns(seed, existing) {
  return seed.columns.map((c, k) => [c, k]).filter(([c]) => existing.has(c));
}

function seedSqlite(file, seeds) {
  const db = new DatabaseSync(file);
  db.exec('pragma journal_mode = WAL');
  db.exec('pragma synchronous = off');
  db.exec('begin');
  for (const seed of seeds) {
    const existing = new Set(
      db
        .prepare('select name from pragma_table_info(?)')
        .all(seed.table)
        .map((r) => r.name),
    );
    const columns = existingColumns(seed, existing);
    const constants = seed.constants ?? {};
    const insert = db.prepare(
      `insert into ${seed.table} (${[...Object.keys(constants), ...columns.map(([c]) => c)].join(', ')})
       values (${[...Object.values(constants), ...columns.map(() => '?')].join(', ')})`,
    );
    for (let i = 0; i < seed.count; i++) {
      const row = seed.row(i);
      insert.run(...columns.map(([, k]) => row[k]));
    }
  }
  db.exec('commit');
  // The portal never analyses its SQLite file: the planner goes by its rules, as here by default.
  // BENCH_SQLITE_ANALYSE=1 measures the statistics an operator's ANALYZE would leave.
  if (process.env.BENCH_SQLITE_ANALYSE === '1') db.exec('analyze');
  db.close();
}

async function seedPostgres(client, seeds) {
  await client.query('set synchronous_commit = off');
  for (const seed of seeds) {
    const existing = new Set(
      (
        await client.query(
          'select column_name from information_schema.columns where table_name = $1',
          [seed.table],
        )
      ).rows.map((r) => r.column_name),
    );
    const columns = existingColumns(seed, existing);
    const constants = seed.constants ?? {};
    const names = columns.map(([c]) => c);
    const insert = `insert into ${seed.table} (${[...Object.keys(constants), ...names].join(', ')})
      select ${[...Object.values(constants), ...names.map((c) => `u.${c}`)].join(', ')}
      from unnest(${names.map((c, k) => `$${k + 1}::${seed.pgTypes?.[c] ?? 'text'}[]`).join(', ')})
        as u(${names.join(', ')})`;
    for (let from = 0; from < seed.count; from += PG_BATCH) {
      const arrays = columns.map(() => []);
      for (let i = from; i < Math.min(seed.count, from + PG_BATCH); i++) {
        const row = seed.row(i);
        columns.forEach(([, k], j) => arrays[j].push(row[k]));
      }
      await client.query(insert, arrays);
    }
    // A settled table, as autovacuum would leave it (visibility map set, statistics taken):
    // otherwise autovacuum runs during the measures of the largest size and of none other.
    await client.query(`vacuum (analyze) ${seed.table}`);
  }
  // The seed's pages written out, so that its checkpoint does not run during the measures.
  await client.query('checkpoint').catch((err) => {
    // CHECKPOINT needs a superuser or pg_checkpoint: without, the figures of the largest size
    // may include the seed's checkpoint.
    if (err.code !== '42501') throw err;
    console.log('  (no CHECKPOINT after the seed: the role may not run one)');
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The latency of GET `url` with `headers`, one request at a time: { n, rows, p50, p95 }. */
async function measure(url, headers) {
  const get = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
    last = body;
    return performance.now() - started;
  };
  let last = '';
  for (let i = 0; i < 20; i++) await get();
  // The rows a list shows, so that a table of times is not one of empty answers.
  let items;
  try {
    items = JSON.parse(last).items;
  } catch {
    /* not JSON (the metrics' text) */
  }
  const times = [];
  const until = performance.now() + CASE_SECONDS * 1000;
  while (times.length < SAMPLES && (times.length < MIN_SAMPLES || performance.now() < until)) {
    times.push(await get());
  }
  times.sort((a, b) => a - b);
  return {
    n: times.length,
    rows: Array.isArray(items) ? items.length : undefined,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
  };
}

const withCursor = (url, cursor) =>
  cursor ? `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : url;

/**
 * The cursor of page `n` of a list (or of its last page, when it has fewer), by following
 * nextCursor from the first page.
 */
async function cursorOfPage(url, n, headers) {
  let cursor = null;
  for (let page = 1; page < n; page++) {
    const res = await fetch(withCursor(url, cursor), { headers });
    if (!res.ok) throw new Error(`page ${page} of ${url} answered ${res.status}`);
    const next = (await res.json()).nextCursor;
    if (!next) return { cursor, page };
    cursor = next;
  }
  return { cursor, page: n };
}

/**
 * A fresh database of `kind` for one size: `{ env, seed(seeds), codeFor(address), drop() }`. On
 * PostgreSQL a database of its own on BENCH_DATABASE_URL; on SQLite a file in a directory of its
 * own. Both dropped after unless BENCH_KEEP_DATABASE is set (to explain the statements on the
 * seeded tables).
 */
async function freshDatabase(kind, dataDir, name) {
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'hygie.sqlite');
    return {
      env: {},
      seed: async (seeds) => seedSqlite(file, seeds),
      codeFor: dataDir,
      drop: async () => {},
    };
  }
  const created = await createPostgresDatabase(`hygie_bench_${name}`);
  const client = new pg.Client({ connectionString: created.url });
  await client.connect();
  return {
    env: { DATABASE_URL: created.url },
    seed: (seeds) => seedPostgres(client, seeds),
    codeFor: async (recipient) => {
      const { rows } = await client.query(
        "select params from outbox where template = 'mfa_code' and recipient = $1 order by created_at desc limit 1",
        [recipient],
      );
      if (!rows[0]) throw new Error(`no second-factor code for ${recipient} in the outbox`);
      return JSON.parse(rows[0].params).code;
    },
    drop: async () => {
      await client.end();
      if (process.env.BENCH_KEEP_DATABASE) {
        console.log(`  kept ${created.url}`);
        return;
      }
      await created.drop();
    },
  };
}

/**
 * One size on one database: seeded with `seeds(size)`, the server started, the admin signed in,
 * then every case of `cases(base)` measured — `{ name: path }` with the admin's session, or
 * `{ name: { path, headers } }` with those headers instead — and every list of `deep` at page
 * DEEP_PAGE (`{ name: path }`, followed by nextCursor).
 */
async function runSize(benchmark, kind, size) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hygie-bench-${benchmark.name}-`));
  const database = await freshDatabase(kind, dataDir, benchmark.name);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SMTP_URL: 'smtp://127.0.0.1:1',
    SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms',
    DATA_ENCRYPTION_KEY: `bench:${DATA_KEY.toString('base64')}`,
    DATA_INDEX_KEY: INDEX_KEY.toString('base64'),
    METRICS_TOKEN,
    ...database.env,
  };
  let server;
  try {
    // The server's own migrations make the schema, on either database.
    execFileSync(process.execPath, [path.join(SERVER_DIR, 'dist/cli.js'), 'migrate'], {
      cwd: root,
      env,
      stdio: 'ignore',
    });
    const started = Date.now();
    await database.seed(benchmark.seeds(size));
    console.log(
      `  seeded ${size.toLocaleString('en')} ${benchmark.rows} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const port = await freePort();
    const starting = Date.now();
    server = spawn(process.execPath, [path.join(SERVER_DIR, 'dist/server.js')], {
      cwd: root,
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
      if (i === 600) throw new Error('the server was not ready within a minute');
      try {
        if ((await fetch(`${base}/api/ready`)).ok) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Start-up to ready on the seeded tables (its checks at start must not grow with them).
    const readyMs = Date.now() - starting;
    console.log(`  ready ${(readyMs / 1000).toFixed(1)} s after start`);
    const session = { cookie: await signInAdmin(base, database.codeFor, ADMIN) };
    const { cases, deep = {} } = benchmark.cases(size);
    const requests = Object.entries({ [BASELINE]: '/api/me', ...cases }).map(([name, c]) => {
      const { path: at, headers = session } = typeof c === 'string' ? { path: c } : c;
      return { name, url: `${base}${at}`, headers };
    });
    // Every case warmed before any is measured: the first measured after the server's start
    // otherwise carried the start's cold reads and compilation in its p95 (a trail's first page
    // at a million events: 8.8 ms at p95 in 200 requests, 1.75 ms in 1,000).
    for (const { url, headers } of requests) {
      for (let i = 0; i < WARM_UP; i++) await (await fetch(url, { headers })).text();
    }
    const results = {};
    for (const { name, url, headers } of requests) results[name] = await measure(url, headers);
    // Page DEEP_PAGE, or the last page where there are fewer.
    for (const [name, at] of Object.entries(deep)) {
      const { cursor, page } = await cursorOfPage(`${base}${at}`, DEEP_PAGE, session);
      results[name] = { ...(await measure(withCursor(`${base}${at}`, cursor), session)), page };
    }
    for (const [name, r] of Object.entries(results)) {
      console.log(
        `  ${name.padEnd(30)} p50 ${r.p50.toFixed(2).padStart(8)} ms  p95 ${r.p95.toFixed(2).padStart(8)} ms  (${r.n} requests${r.rows === undefined ? '' : `, ${r.rows} rows`}${r.page ? `, page ${r.page}` : ''})`,
      );
    }
    return results;
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await database.drop();
    if (process.env.BENCH_KEEP_DATABASE && kind === 'sqlite') console.log(`  kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs `benchmark` ({ name, rows, seeds(size), cases(size) }) at every size on every database,
 * prints its tables and writes bench/results/<name>-<date>.json.
 */
export async function runScale(benchmark) {
  const kinds = [];
  for (const kind of DATABASES) {
    if (kind === 'postgres' && !(await postgresAvailable())) {
      console.log(`PostgreSQL not reachable at ${POSTGRES_URL}: its rows are left out`);
    } else if (kind === 'sqlite' || kind === 'postgres') {
      kinds.push(kind);
    } else {
      throw new Error(`BENCH_DATABASES: ${kind} is neither sqlite nor postgres`);
    }
  }
  const smallest = Math.min(...SIZES);
  const largest = Math.max(...SIZES);
  const results = {};
  const ratios = {};
  for (const kind of kinds) {
    const bySize = {};
    for (const size of SIZES) {
      console.log(
        `\n${kind}, ${size.toLocaleString('en')} ${benchmark.rows} (${path.relative(root, SERVER_DIR) || '.'})`,
      );
      bySize[size] = await runSize(benchmark, kind, size);
    }
    results[kind] = bySize;
    ratios[kind] = {};
  }
  for (const kind of kinds) {
    const bySize = results[kind];
    const names = Object.keys(bySize[smallest]);
    const width = Math.max(26, ...names.map((n) => n.length));
    console.log(
      `\n${kind}: p95 in ms; ratio ${largest.toLocaleString('en')} ÷ ${smallest.toLocaleString('en')} (goal ≤ 1.5); p95 ÷ /api/me p95 at ${largest.toLocaleString('en')}`,
    );
    console.log(
      `${'case'.padEnd(width)} ${SIZES.map((s) => s.toLocaleString('en').padStart(10)).join(' ')}   ratio  ÷ me`,
    );
    for (const p of ['p95', 'p50']) {
      if (p === 'p50')
        console.log(`\n${kind}: p50 in ms (less swayed by a shared machine's noise)`);
      for (const name of names) {
        const ratio = bySize[largest][name][p] / bySize[smallest][name][p];
        const overMe = bySize[largest][name][p] / bySize[largest][BASELINE][p];
        ratios[kind][name] = { ...ratios[kind][name], [p]: { sizes: ratio, overMe } };
        console.log(
          `${name.padEnd(width)} ${SIZES.map((s) => bySize[s][name][p].toFixed(2).padStart(10)).join(' ')}   ${ratio.toFixed(2).padStart(5)}  ${overMe.toFixed(2).padStart(5)}`,
        );
      }
    }
  }
  const report = {
    date: new Date().toISOString(),
    server: path.relative(root, SERVER_DIR) || '.',
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      memoryGiB: os.totalmem() / 2 ** 30,
    },
    loadAverage: os.loadavg(),
    sizes: SIZES,
    results,
    ratios,
  };
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(
      import.meta.dirname,
      'results',
      `${benchmark.name}-${report.date.replace(/[:.]/g, '-')}.json`,
    ),
    `${JSON.stringify(report, null, 2)}\n`,
  );
}
