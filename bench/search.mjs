// Admin search at scale: for each size of BENCH_SIZES (default 1,000, 100,000 and 1,000,000
// users) seeds a fresh SQLite database (one transaction, prepared statements), starts the built
// server on it, and measures the latency of each kind of admin search, one request at a time, with
// GET /api/me as the baseline of the same run. Prints p50/p95 per size, the ratio of each search's
// p95 at the largest size to its p95 at the smallest (flat search: ≤ 1.5), and search ÷ /api/me.
//
// BENCH_SERVER_DIR runs another build of the server (a dist/ built from an earlier commit) against
// the same seed, to compare before and after on one machine in one sitting.
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { signInAdmin } from './sign-in.mjs';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_DIR = path.resolve(process.env.BENCH_SERVER_DIR ?? path.join(root, 'apps/server'));
const SIZES = (process.env.BENCH_SIZES ?? '1000,100000,1000000').split(',').map(Number);
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

function seed(file, users) {
  const db = new DatabaseSync(file);
  db.exec('pragma journal_mode = WAL');
  db.exec('pragma synchronous = off');
  const columns = db
    .prepare('select name from pragma_table_info(?)')
    .all('users')
    .map((r) => r.name);
  const insert = db.prepare(
    `insert into users (id, type, email, email_verified_at, phone, must_create_password, profile, status, roles,
     first_name, last_name, language, created_at, updated_at, search_name, cgu_version,
     professional_id_type, professional_id${columns.includes('ins_index') ? ', ins_index' : ''})
     values (?, 'person', ?, 1, ?, 0, ?, ?, '[]', ?, ?, 'fr', ?, ?, ?, '2026-01', ?, ?${
       columns.includes('ins_index') ? ', ?' : ''
     })`,
  );
  db.exec('begin');
  for (let i = 0; i < users; i++) {
    const first = firstName(i);
    const last = lastName(i);
    const at = 1_700_000_000_000 + i;
    const pro = isProfessional(i);
    const values = [
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
    ];
    if (columns.includes('ins_index')) {
      values.push(
        hasIns(i)
          ? createHmac('sha256', INDEX_KEY)
              .update(`users.ins\0${insOf(i)}`)
              .digest('base64url')
          : null,
      );
    }
    insert.run(...values);
  }
  db.exec('commit');
  db.exec('analyze');
  db.close();
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
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i++) await get();
  const times = [];
  const until = performance.now() + CASE_SECONDS * 1000;
  while (times.length < SAMPLES && (times.length < MIN_SAMPLES || performance.now() < until)) {
    times.push(await get());
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p95: percentile(times, 95) };
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

async function runSize(users) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-bench-search-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SMTP_URL: 'smtp://127.0.0.1:1',
    SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms',
    DATA_ENCRYPTION_KEY: `bench:${DATA_KEY.toString('base64')}`,
    DATA_INDEX_KEY: INDEX_KEY.toString('base64'),
  };
  let server;
  try {
    execFileSync(process.execPath, [path.join(SERVER_DIR, 'dist/cli.js'), 'migrate'], {
      cwd: root,
      env,
      stdio: 'ignore',
    });
    const started = Date.now();
    seed(path.join(dataDir, 'hygie.sqlite'), users);
    console.log(
      `seeded ${users.toLocaleString('en')} users in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const port = 20_000 + Math.floor(Math.random() * 30_000);
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
    const cookie = await signInAdmin(base, dataDir, ADMIN);
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
        `  ${name.padEnd(26)} p50 ${r.p50.toFixed(2).padStart(8)} ms  p95 ${r.p95.toFixed(2).padStart(8)} ms  (${r.n} requests${r.page ? `, page ${r.page}` : ''})`,
      );
    }
    return results;
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const bySize = {};
for (const users of SIZES) {
  console.log(`\n${users.toLocaleString('en')} users (${path.relative(root, SERVER_DIR) || '.'})`);
  bySize[users] = await runSize(users);
}
const smallest = Math.min(...SIZES);
const largest = Math.max(...SIZES);
const names = Object.keys(bySize[smallest]);
const baseline = 'GET /api/me (baseline)';
console.log(
  `\np95 in ms; ratio ${largest.toLocaleString('en')} ÷ ${smallest.toLocaleString('en')} (goal ≤ 1.5); p95 ÷ /api/me p95 at ${largest.toLocaleString('en')}`,
);
console.log(
  `${'case'.padEnd(26)} ${SIZES.map((s) => s.toLocaleString('en').padStart(10)).join(' ')}   ratio  ÷ me`,
);
const ratios = {};
for (const p of ['p95', 'p50']) {
  if (p === 'p50') console.log(`\np50 in ms (less swayed by a shared machine's noise)`);
  for (const name of names) {
    const ratio = bySize[largest][name][p] / bySize[smallest][name][p];
    const overMe = bySize[largest][name][p] / bySize[largest][baseline][p];
    ratios[name] = { ...ratios[name], [p]: { sizes: ratio, overMe } };
    console.log(
      `${name.padEnd(26)} ${SIZES.map((s) => bySize[s][name][p].toFixed(2).padStart(10)).join(' ')}   ${ratio.toFixed(2).padStart(5)}  ${overMe.toFixed(2).padStart(5)}`,
    );
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
  sizes: SIZES,
  results: bySize,
  ratios,
};
fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(import.meta.dirname, 'results', `search-${report.date.replace(/[:.]/g, '-')}.json`),
  `${JSON.stringify(report, null, 2)}\n`,
);
