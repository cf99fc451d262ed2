// Admin search and sign-in lookups at scale: seeds BENCH_USERS users (default 1,000,000) into a
// fresh SQLite database, starts the built server on it, and measures the admin search against
// GET /api/me (the baseline, same session, same load) in the same run; prints the query plans.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { signInAdmin } from './sign-in.mjs';
import { DatabaseSync } from 'node:sqlite';

const root = path.resolve(import.meta.dirname, '..');
const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ADMIN = { email: 'admin@bench.test', password: 'Steady-Lamp-4821' };
const LAST = [
  'martin',
  'bernard',
  'dubois',
  'thomas',
  'robert',
  'richard',
  'petit',
  'durand',
  'leroy',
  'moreau',
];
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

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-bench-search-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://127.0.0.1:1',
  SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms',
};
execFileSync(process.execPath, ['apps/server/dist/cli.js', 'migrate'], {
  cwd: root,
  env,
  stdio: 'ignore',
});

console.log(`seeding ${USERS.toLocaleString('en')} users…`);
const started = Date.now();
// Node's own SQLite driver is enough to seed the file the server then opens.
const db = new DatabaseSync(path.join(dataDir, 'hygie.sqlite'));
db.exec('pragma journal_mode = WAL');
const insert = db.prepare(
  `insert into users (id, type, email, email_verified_at, phone, must_create_password, profile, status, roles,
   first_name, last_name, language, created_at, updated_at, search_name, cgu_version)
   values (?, 'person', ?, 1, ?, 0, 'patient', 'active', '[]', ?, ?, 'fr', ?, ?, ?, '2026-01')`,
);
db.exec('begin');
for (let i = 0; i < USERS; i++) {
  const first = FIRST[i % FIRST.length];
  const last = `${LAST[((i / 10) % LAST.length) | 0]}${i}`;
  const at = 1_700_000_000_000 + i;
  insert.run(
    `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    `user${i}@bench.test`,
    `+3361${String(i).padStart(7, '0')}`,
    first,
    last,
    at,
    at,
    `${last} ${first}`,
  );
}
db.exec('commit');
db.exec('analyze');
console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const plans = {
  login_email: "select id from users where email = 'user777@bench.test'",
  login_phone: "select id from users where phone = '+33610000777'",
  admin_search:
    "select id from users where ((email >= 'durand77' and email < 'durand77\uffff') or (search_name >= 'durand77' and search_name < 'durand77\uffff') or ins = 'DURAND77') order by created_at desc limit 21",
};
const planText = {};
for (const [name, q] of Object.entries(plans)) {
  planText[name] = db
    .prepare(`explain query plan ${q}`)
    .all()
    .map((r) => r.detail)
    .join(' | ');
  console.log(`plan ${name}: ${planText[name]}`);
}
db.close();

const port = 20_000 + Math.floor(Math.random() * 30_000);
const server = spawn(process.execPath, ['apps/server/dist/server.js'], {
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
try {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/api/ready`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const cookie = await signInAdmin(base, dataDir, ADMIN);
  const run = (url) =>
    new Promise((resolve, reject) =>
      autocannon(
        { url, connections: CONNECTIONS, duration: DURATION, headers: { cookie } },
        (e, r) => (e ? reject(e) : resolve(r)),
      ),
    );
  const summary = (r) => ({
    requestsPerSecond: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx: r.non2xx,
  });
  const me = summary(await run(`${base}/api/me`));
  const search = summary(await run(`${base}/api/admin/users?q=durand77`));
  if (search.non2xx > 0) throw new Error('the search answered errors');
  const ratio = Number((search.requestsPerSecond / me.requestsPerSecond).toFixed(3));
  console.log(
    `GET /api/me             ${me.requestsPerSecond.toFixed(0)} req/s  p50 ${me.latencyP50Ms} ms  p99 ${me.latencyP99Ms} ms`,
  );
  console.log(
    `GET /api/admin/users?q= ${search.requestsPerSecond.toFixed(0)} req/s  p50 ${search.latencyP50Ms} ms  p99 ${search.latencyP99Ms} ms`,
  );
  console.log(`ratio search ÷ me: ${ratio} (at ${USERS.toLocaleString('en')} users)`);
  const report = {
    date: new Date().toISOString(),
    users: USERS,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    me,
    search,
    ratio,
    plans: planText,
  };
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(import.meta.dirname, 'results', `search-${report.date.replace(/[:.]/g, '-')}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 4000));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
