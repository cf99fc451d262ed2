// GET /api/me with a real session, against a bare Fastify route measured in the same run with the
// same load (autocannon, same connections and duration). The machines are shared and noisy, so
// the ratio is the figure to compare between runs, not the absolute requests per second.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { signInAdmin } from './sign-in.mjs';

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ADMIN = { email: 'bench@hygie.test', password: 'Steady-Lamp-4821' };

function freePort() {
  return 20_000 + Math.floor(Math.random() * 30_000);
}

async function waitFor(url) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

function run(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

function summary(result) {
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-bench-'));
const serverPort = freePort();
const barePort = serverPort + 1;
const server = startProcess(['apps/server/dist/server.js'], {
  NODE_ENV: 'production',
  PORT: String(serverPort),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  // production mode needs real transports configured; nothing is sent during the bench.
  SMTP_URL: 'smtp://127.0.0.1:1',
  SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms',
});
const bare = startProcess(['bench/bare-server.mjs'], { PORT: String(barePort) });

try {
  const base = `http://127.0.0.1:${serverPort}`;
  await Promise.all([waitFor(`${base}/api/ready`), waitFor(`http://127.0.0.1:${barePort}/bare`)]);

  // The admin passes the second factor like any user (the code is read back from the outbox).
  const cookie = await signInAdmin(base, dataDir, ADMIN);
  const check = await fetch(`${base}/api/me`, { headers: { cookie } });
  if (check.status !== 200) throw new Error(`/api/me answered ${check.status}`);

  console.log(`warming up (${CONNECTIONS} connections)…`);
  await new Promise((r) =>
    autocannon(
      { url: `${base}/api/me`, connections: CONNECTIONS, duration: 2, headers: { cookie } },
      r,
    ),
  );
  await new Promise((r) =>
    autocannon(
      { url: `http://127.0.0.1:${barePort}/bare`, connections: CONNECTIONS, duration: 2 },
      r,
    ),
  );

  console.log(`measuring ${DURATION} s each…`);
  const bareResult = summary(await run(`http://127.0.0.1:${barePort}/bare`));
  const meResult = summary(await run(`${base}/api/me`, { cookie }));
  if (meResult.non2xx > 0 || meResult.errors > 0)
    throw new Error('/api/me had failures during the run');

  const ratio = meResult.requestsPerSecond / bareResult.requestsPerSecond;
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    bare: bareResult,
    me: meResult,
    ratio: Number(ratio.toFixed(3)),
  };
  const row = (name, r) =>
    `${name.padEnd(14)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(r.latencyP50Ms).padStart(4)} ms   p99 ${String(r.latencyP99Ms).padStart(4)} ms`;
  console.log(row('bare fastify', bareResult));
  console.log(row('GET /api/me', meResult));
  console.log(`ratio /api/me ÷ bare: ${report.ratio}`);
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  const file = path.join(
    import.meta.dirname,
    'results',
    `me-${report.date.replace(/[:.]/g, '-')}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
} finally {
  server.kill('SIGTERM');
  bare.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
