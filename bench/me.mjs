// GET /api/me with a real session, against a bare Fastify route measured in the same run with the
// same load (autocannon, same connections and duration), on SQLite and on PostgreSQL. The machines
// are shared and noisy, so the ratio is the figure to compare between runs, not the requests per
// second. Beside throughput, each server's own CPU time per request (user + system, read from
// /proc around the load): it does not depend on what else the machine runs, so it is the steadier
// figure. BENCH_ROUNDS (default 3) repeats the bare/me pair and reports medians: one round's ratio
// moves by a tenth between runs on a shared machine.
import { execFileSync } from 'node:child_process';
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
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOALS = { sqlite: 0.5, postgres: 0.35 };
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** A process's CPU time so far, user + system, in µs (Linux /proc; null elsewhere). */
function cpuMicros(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** autocannon's run, with the server's CPU µs per request over it. */
async function loadWithCpu(pid, url, options = {}) {
  const before = cpuMicros(pid);
  const result = await load(url, options);
  const after = cpuMicros(pid);
  const cpu =
    before === null || after === null || result.requests.total === 0
      ? null
      : (after - before) / result.requests.total;
  return { ...summary(result), cpuMicrosPerRequest: cpu === null ? null : Number(cpu.toFixed(1)) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

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

async function measure(kind, bare) {
  const portal = await startPortal(kind);
  try {
    const url = `${portal.base}/api/me`;
    const headers = { cookie: portal.cookie };
    // Warm both up (JIT, the session user cache, connections), then measure one after the other.
    await load(url, { headers, duration: 2 });
    await load(bare.url, { duration: 2 });
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const bareRun = await loadWithCpu(bare.pid, bare.url);
      const me = await loadWithCpu(portal.pid, url, { headers });
      // The same hooks and headers without the session check: where /api/me's cost lies.
      const health = await loadWithCpu(portal.pid, `${portal.base}/api/health`, { headers });
      if (me.non2xx > 0 || me.errors > 0) throw new Error(`/api/me had failures on ${kind}`);
      rounds.push({
        bare: bareRun,
        me,
        health,
        ratio: Number((me.requestsPerSecond / bareRun.requestsPerSecond).toFixed(3)),
        // Bare CPU per request ÷ /api/me's: comparable to the throughput ratio, without the noise.
        cpuRatio:
          me.cpuMicrosPerRequest && bareRun.cpuMicrosPerRequest
            ? Number((bareRun.cpuMicrosPerRequest / me.cpuMicrosPerRequest).toFixed(3))
            : null,
      });
    }
    const medianOf = (pick) => {
      const values = rounds.map(pick).filter((v) => v !== null);
      return values.length ? Number(median(values).toFixed(3)) : null;
    };
    return {
      rounds,
      ratio: medianOf((r) => r.ratio),
      cpuRatio: medianOf((r) => r.cpuRatio),
      bareCpuMicrosPerRequest: medianOf((r) => r.bare.cpuMicrosPerRequest),
      meCpuMicrosPerRequest: medianOf((r) => r.me.cpuMicrosPerRequest),
      healthCpuMicrosPerRequest: medianOf((r) => r.health.cpuMicrosPerRequest),
    };
  } finally {
    await portal.stop();
  }
}

const barePort = await freePort();
const bare = startProcess(['bench/bare-server.mjs'], { PORT: String(barePort) });
const bareUrl = `http://127.0.0.1:${barePort}/bare`;
try {
  await waitFor(bareUrl);
  const kinds = ['sqlite', ...((await postgresAvailable()) ? ['postgres'] : [])].filter(
    // BENCH_KINDS=postgres (or sqlite) measures one database only.
    (kind) => !process.env.BENCH_KINDS || process.env.BENCH_KINDS.split(',').includes(kind),
  );
  if (kinds.length === 1) console.log('PostgreSQL not reachable: its row is left out');
  const results = {};
  for (const kind of kinds) {
    console.log(
      `/api/me on ${kind}: ${CONNECTIONS} connections, ${DURATION} s each, ${ROUNDS} round(s)…`,
    );
    results[kind] = await measure(kind, { url: bareUrl, pid: bare.pid });
  }
  const row = (name, r) =>
    `${name.padEnd(24)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(r.latencyP50Ms).padStart(4)} ms   p99 ${String(r.latencyP99Ms).padStart(4)} ms   server CPU ${String(r.cpuMicrosPerRequest ?? '?').padStart(6)} µs/req`;
  for (const [kind, r] of Object.entries(results)) {
    for (const round of r.rounds) {
      console.log(row(`bare fastify (${kind} run)`, round.bare));
      console.log(row(`GET /api/me ${kind}`, round.me));
      console.log(row(`GET /api/health ${kind}`, round.health));
    }
    console.log(
      `ratio /api/me ÷ bare, ${kind} (median): ${r.ratio} (goal ≥ ${GOALS[kind]}) ${r.ratio >= GOALS[kind] ? 'met' : 'NOT met'}; rounds ${r.rounds.map((round) => round.ratio).join(', ')}, met in ${r.rounds.filter((round) => round.ratio >= GOALS[kind]).length} of ${r.rounds.length}`,
    );
    console.log(
      `server CPU per request, ${kind} (median): bare ${r.bareCpuMicrosPerRequest} µs, /api/health ${r.healthCpuMicrosPerRequest} µs, /api/me ${r.meCpuMicrosPerRequest} µs, bare ÷ /api/me ${r.cpuRatio}`,
    );
  }
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    rounds: ROUNDS,
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
