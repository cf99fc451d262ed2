// GET /api/me with a real session, against a bare Fastify route measured in the same run with the
// same load (autocannon, same connections and duration), on SQLite and on PostgreSQL. The machines
// are shared and noisy, so the ratio is the figure to compare between runs, not the requests per
// second.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  freePort,
  postgresAvailable,
  root,
  startPortal,
  startProcess,
  waitFor,
} from './portal.mjs';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const GOALS = { sqlite: 0.5, postgres: 0.35 };

export function load(url, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

export function summary(result) {
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function measure(kind, bareUrl) {
  const portal = await startPortal(kind);
  try {
    const url = `${portal.base}/api/me`;
    const headers = { cookie: portal.cookie };
    // Warm both up (JIT, the session user cache, connections), then measure one after the other.
    await load(url, { headers, duration: 2 });
    await load(bareUrl, { duration: 2 });
    const bare = summary(await load(bareUrl));
    const me = summary(await load(url, { headers }));
    if (me.non2xx > 0 || me.errors > 0) throw new Error(`/api/me had failures on ${kind}`);
    return { bare, me, ratio: Number((me.requestsPerSecond / bare.requestsPerSecond).toFixed(3)) };
  } finally {
    await portal.stop();
  }
}

const barePort = freePort();
const bare = startProcess(['bench/bare-server.mjs'], { PORT: String(barePort) });
const bareUrl = `http://127.0.0.1:${barePort}/bare`;
try {
  await waitFor(bareUrl);
  const kinds = ['sqlite', ...((await postgresAvailable()) ? ['postgres'] : [])];
  if (kinds.length === 1) console.log('PostgreSQL not reachable: its row is left out');
  const results = {};
  for (const kind of kinds) {
    console.log(`/api/me on ${kind}: ${CONNECTIONS} connections, ${DURATION} s each…`);
    results[kind] = await measure(kind, bareUrl);
  }
  const row = (name, r) =>
    `${name.padEnd(24)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(r.latencyP50Ms).padStart(4)} ms   p99 ${String(r.latencyP99Ms).padStart(4)} ms`;
  for (const [kind, r] of Object.entries(results)) {
    console.log(row(`bare fastify (${kind} run)`, r.bare));
    console.log(row(`GET /api/me ${kind}`, r.me));
    console.log(
      `ratio /api/me ÷ bare, ${kind}: ${r.ratio} (goal ≥ ${GOALS[kind]}) ${r.ratio >= GOALS[kind] ? 'met' : 'NOT met'}`,
    );
  }
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    results,
  };
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  const file = path.join(
    import.meta.dirname,
    'results',
    `me-${report.date.replace(/[:.]/g, '-')}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
} finally {
  bare.kill('SIGTERM');
}
