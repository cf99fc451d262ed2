// Admin search at scale: for each database of BENCH_DATABASES (default sqlite,postgres) and each
// size of BENCH_SIZES (default 1,000, 100,000 and 1,000,000 users), creates a fresh database with
// the server's own migrations, seeds it (SQLite: one transaction of prepared statements;
// PostgreSQL: batches of rows sent as arrays and unnested, then VACUUM ANALYZE and CHECKPOINT),
// starts the built server on it, and measures the latency of each kind of admin search, one request
// at a time, with GET /api/me as the baseline of the same run. Prints, per database, p50/p95 per
// size, the ratio of each search's p95 at the largest size to its p95 at the smallest (flat
// search: ≤ 1.5), and search ÷ /api/me. The PostgreSQL rows are skipped, and say so, when BENCH_DATABASE_URL does not
// answer (bench/portal.mjs).
//
// BENCH_SERVER_DIR runs another build of the server (a dist/ built from an earlier commit) against
// the same seed, to compare before and after on one machine in one sitting.
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { createPostgresDatabase, POSTGRES_URL, postgresAvailable } from './portal.mjs';
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
/** The deep page measured, reached by following nextCursor (page 200 of 20: the 4,000th row). */
const DEEP_PAGE = Number(process.env.BENCH_DEEP_PAGE ?? 200);
const ADMIN = { email: 'bench@hygie.test', password: 'Steady-Lamp-4821' };
const LAST = ['martin', 'bernard', 'dubois', 'thomas', 'robert'];
const LAST2 = ['richard', 'petit', 'durand', 'leroy', 'moreau'];
const FIRST = [
  'jeanne',
  'louis',
  'lea',
  'hugo',
  'chloe',
  'lucas',
  'emma',
  'nathan',
  'ines',
  'paul',
];
const INDEX_KEY = randomBytes(32);
const DATA_KEY = randomBytes(32);

/** Half the accounts bear one of five very common names; the others are spread over many. */
const lastName = (i) =>
  i % 2 === 0 ? LAST[(i / 2) % LAST.length] : `${LAST2[i % LAST2.length]}${i}`;
const firstName = (i) => FIRST[Math.floor(i / 7) % FIRST.length];
const phoneOf = (i) => `+336${String(10_000_000 + i).slice(-8)}`;
const insOf = (i) =>
  `${String(1_800_000_000_000 + i)}${String(97 - ((1_800_000_000_000 + i) % 97)).padStart(2, '0')}`;
const rppsOf = (i) => String(10_000_000_000 + i);
/** Every 100th account holds an INS (its blind index: the INS itself stays out of the bench). */
const hasIns = (i) => i % 100 === 3;
const isProfessional = (i) => i % 10 === 7;

/** The columns the seed writes, in the order of `userRow`'s values. */
const COLUMNS = [
  'id',
  'email',
  'phone',
  'profile',
  'status',
  'first_name',
  'last_name',
  'created_at',
  'updated_at',
  'search_name',
  'professional_id_type',
  'professional_id',
  'ins_index',
];
/** The same for every account. */
const CONSTANTS = {
  type: "'person'",
  email_verified_at: '1',
  must_create_password: '0',
  roles: "'[]'",
  language: "'fr'",
  cgu_version: "'2026-01'",
};

/**
 * Account `i` as the values of COLUMNS: one generator of rows, a writer per database. The last
 * (ins_index) is left out when the build measured predates the column.
 */
function userRow(i) {
  const first = firstName(i);
  const last = lastName(i);
  const at = 1_700_000_000_000 + i;
  const pro = isProfessional(i);
  return [
    `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    `user${i}@bench.test`,
    phoneOf(i),
    pro ? 'professional' : 'patient',
    i % 100 === 42 ? 'locked' : 'active',
    first,
    last,
    at,
    at,
    `${last} ${first}`,
    pro ? 'RPPS' : null,
    pro ? rppsOf(i) : null,
    hasIns(i)
      ? createHmac('sha256', INDEX_KEY)
          .update(`users.ins\0${insOf(i)}`)
          .digest('base64url')
      : null,
  ];
}

function seedSqlite(file, users) {
  const db = new DatabaseSync(file);
  db.exec('pragma journal_mode = WAL');
  db.exec('pragma synchronous = off');
  const existing = new Set(
    db
      .prepare('select name from pragma_table_info(?)')
      .all('users')
      .map((r) => r.name),
  );
  const columns = COLUMNS.filter((c) => existing.has(c));
  const insert = db.prepare(
    `insert into users (${[...Object.keys(CONSTANTS), ...columns].join(', ')})
     values (${[...Object.values(CONSTANTS), ...columns.map(() => '?')].join(', ')})`,
  );
  db.exec('begin');
  for (let i = 0; i < users; i++) insert.run(...userRow(i).slice(0, columns.length));
  db.exec('commit');
  db.exec('analyze');
  db.close();
}

/** The PostgreSQL type of each of COLUMNS, for its array parameter. */
const PG_TYPES = { created_at: 'bigint', updated_at: 'bigint' };

async function seedPostgres(client, users) {
  const existing = new Set(
    (
      await client.query(
        "select column_name from information_schema.columns where table_name = 'users'",
      )
    ).rows.map((r) => r.column_name),
  );
  const columns = COLUMNS.filter((c) => existing.has(c));
  const insert = `insert into users (${[...Object.keys(CONSTANTS), ...columns].join(', ')})
    select ${[...Object.values(CONSTANTS), ...columns.map((c) => `u.${c}`)].join(', ')}
    from unnest(${columns.map((c, k) => `$${k + 1}::${PG_TYPES[c] ?? 'text'}[]`).join(', ')})
      as u(${columns.join(', ')})`;
  await client.query('set synchronous_commit = off');
  for (let from = 0; from < users; from += PG_BATCH) {
    const arrays = columns.map(() => []);
    for (let i = from; i < Math.min(users, from + PG_BATCH); i++) {
      const row = userRow(i);
      for (let k = 0; k < columns.length; k++) arrays[k].push(row[k]);
    }
    await client.query(insert, arrays);
  }
  // A settled table, as autovacuum would leave it (visibility map set, statistics taken), and its
  // pages written out: otherwise autovacuum and the checkpoint of the seed's writes run during
  // the measures of the largest size and of none other.
  await client.query('vacuum (analyze) users');
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

async function measure(url, cookie) {
  const get = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
    last = body;
    return performance.now() - started;
  };
  let last = '';
  for (let i = 0; i < 20; i++) await get();
  // The rows a search shows, so that a table of times is not one of empty answers.
  const { items } = JSON.parse(last);
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

/**
 * The cursor of page `n` of a search (or of its last page, when it has fewer), by following
 * nextCursor from the first page.
 */
async function cursorOfPage(base, query, n, cookie) {
  let cursor = null;
  for (let page = 1; page < n; page++) {
    const res = await fetch(
      `${base}/api/admin/users?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: { cookie } },
    );
    if (!res.ok) throw new Error(`page ${page} of ${query} answered ${res.status}`);
    const next = (await res.json()).nextCursor;
    if (!next) return { cursor, page };
    cursor = next;
  }
  return { cursor, page: n };
}

/**
 * A fresh database of `kind` for one size: `{ env, seed(users), codeFor(address), drop() }`. On
 * PostgreSQL a database of its own on BENCH_DATABASE_URL, dropped after unless
 * BENCH_KEEP_DATABASE is set (to explain the statements on the seeded table).
 */
async function freshDatabase(kind, dataDir) {
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'hygie.sqlite');
    return {
      env: {},
      seed: async (users) => seedSqlite(file, users),
      codeFor: dataDir,
      drop: async () => {},
    };
  }
  const created = await createPostgresDatabase('hygie_bench_search');
  const client = new pg.Client({ connectionString: created.url });
  await client.connect();
  return {
    env: { DATABASE_URL: created.url },
    seed: (users) => seedPostgres(client, users),
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

async function runSize(kind, users) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-bench-search-'));
  const database = await freshDatabase(kind, dataDir);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SMTP_URL: 'smtp://127.0.0.1:1',
    SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms',
    DATA_ENCRYPTION_KEY: `bench:${DATA_KEY.toString('base64')}`,
    DATA_INDEX_KEY: INDEX_KEY.toString('base64'),
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
    await database.seed(users);
    console.log(
      `  seeded ${users.toLocaleString('en')} users in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const port = 20_000 + Math.floor(Math.random() * 30_000);
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
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${base}/api/ready`)).ok) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Start-up to ready on the seeded table (its checks at start must not grow with it).
    const readyMs = Date.now() - starting;
    console.log(`  ready ${(readyMs / 1000).toFixed(1)} s after start`);
    const cookie = await signInAdmin(base, database.codeFor, ADMIN);
    const search = (query) => `${base}/api/admin/users?${query}`;
    // Accounts that exist at every size (the smallest has 1,000).
    const rare = 777;
    const cases = {
      'GET /api/me (baseline)': `${base}/api/me`,
      'list, newest first': search('q='),
      'common name (martin)': search('q=martin'),
      'common name + status': search('q=martin&status=locked'),
      // No bench account but the admin is one: the admins' own index is read, not the name's
      // entries (docs/decisions.md "Admin search").
      'common name + role=admin': search('q=martin&role=admin'),
      'rare name (full)': search(`q=${encodeURIComponent(`${lastName(rare)} ${firstName(rare)}`)}`),
      'e-mail prefix': search('q=user77'),
      'e-mail with @': search(`q=${encodeURIComponent(`user${rare}@`)}`),
      phone: search(
        `q=${encodeURIComponent(
          `06 ${phoneOf(rare)
            .slice(4)
            .replace(/(\d\d)(?=\d)/g, '$1 ')}`,
        )}`,
      ),
      INS: search(`q=${insOf(703)}`),
      RPPS: search(`q=${rppsOf(rare)}`),
    };
    // Page DEEP_PAGE of 20 rows, or the last page where there are fewer (100 "martin" at 1,000).
    const deep = {
      'common name, deep page': 'q=martin&pageSize=20',
      'list, deep page': 'q=&pageSize=20',
    };
    const results = {};
    for (const [name, url] of Object.entries(cases)) results[name] = await measure(url, cookie);
    for (const [name, query] of Object.entries(deep)) {
      const { cursor, page } = await cursorOfPage(base, query, DEEP_PAGE, cookie);
      results[name] = {
        ...(await measure(search(`${query}&cursor=${encodeURIComponent(cursor)}`), cookie)),
        page,
      };
    }
    for (const [name, r] of Object.entries(results)) {
      console.log(
        `  ${name.padEnd(26)} p50 ${r.p50.toFixed(2).padStart(8)} ms  p95 ${r.p95.toFixed(2).padStart(8)} ms  (${r.n} requests${r.rows === undefined ? '' : `, ${r.rows} rows`}${r.page ? `, page ${r.page}` : ''})`,
      );
    }
    return results;
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

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
const baseline = 'GET /api/me (baseline)';
const results = {};
const ratios = {};
for (const kind of kinds) {
  const bySize = {};
  for (const users of SIZES) {
    console.log(
      `\n${kind}, ${users.toLocaleString('en')} users (${path.relative(root, SERVER_DIR) || '.'})`,
    );
    bySize[users] = await runSize(kind, users);
  }
  results[kind] = bySize;
  ratios[kind] = {};
}
for (const kind of kinds) {
  const bySize = results[kind];
  const names = Object.keys(bySize[smallest]);
  console.log(
    `\n${kind}: p95 in ms; ratio ${largest.toLocaleString('en')} ÷ ${smallest.toLocaleString('en')} (goal ≤ 1.5); p95 ÷ /api/me p95 at ${largest.toLocaleString('en')}`,
  );
  console.log(
    `${'case'.padEnd(26)} ${SIZES.map((s) => s.toLocaleString('en').padStart(10)).join(' ')}   ratio  ÷ me`,
  );
  for (const p of ['p95', 'p50']) {
    if (p === 'p50') console.log(`\n${kind}: p50 in ms (less swayed by a shared machine's noise)`);
    for (const name of names) {
      const ratio = bySize[largest][name][p] / bySize[smallest][name][p];
      const overMe = bySize[largest][name][p] / bySize[largest][baseline][p];
      ratios[kind][name] = { ...ratios[kind][name], [p]: { sizes: ratio, overMe } };
      console.log(
        `${name.padEnd(26)} ${SIZES.map((s) => bySize[s][name][p].toFixed(2).padStart(10)).join(' ')}   ${ratio.toFixed(2).padStart(5)}  ${overMe.toFixed(2).padStart(5)}`,
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
  path.join(import.meta.dirname, 'results', `search-${report.date.replace(/[:.]/g, '-')}.json`),
  `${JSON.stringify(report, null, 2)}\n`,
);
