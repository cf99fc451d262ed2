// The server's CPU per request of GET /api/me, /api/health (same cookie: the same hooks without the
// session check) and a bare Fastify route, without the socket: every request goes through Fastify's
// `inject` (light-my-request) in this one process, and the CPU is the process's own
// (`process.cpuUsage()`, user + system) around each batch. What HTTP adds (the socket writes, the
// client's share of the cores) is left out, so the figures attribute the portal's own work; a CPU
// profile of this process (`--cpu-prof --cpu-prof-interval 100`, BENCH_ONLY=me) shows where it goes.
// The process's own socket writes a request (its database connections) are counted beside them.
//
// The portal is bundled from the sources of BENCH_INJECT_ROOT (default this repository) as the
// server's build does, and started as `npm start` would in production (no dev outbox, no test
// clock), on a temporary SQLite file or a fresh PostgreSQL database; its admin signs in through the
// real stages. Another checkout in BENCH_INJECT_ROOT (its own `npm ci` done) measures another build:
// alternate runs of each to compare them.
//
// BENCH_KINDS=sqlite|postgres, BENCH_ROUNDS (default 5), BENCH_REQUESTS per route and round
// (default 20,000), BENCH_CONCURRENCY requests in flight (default 10), BENCH_ONLY=me|health|bare
// (comma-separated) to load only some routes (for a profile). BENCH_HEAP_PROFILE=FILE writes a
// sampling heap profile of the measured rounds, the objects collected since included: what the
// requests allocate, by function (`node bench/profile-summary.mjs FILE`).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import Fastify from 'fastify';
import { bundlePortal, median, socketWrites, startInProcess } from './in-process.mjs';
import { ADMIN, postgresAvailable, root, writeReport } from './portal.mjs';
import { signInAdmin } from './sign-in.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const ONLY = process.env.BENCH_ONLY?.split(',') ?? ['bare', 'health', 'me'];
const target = path.resolve(process.env.BENCH_INJECT_ROOT ?? root);

/** `REQUESTS` injections, CONCURRENCY at a time: CPU µs and wall µs per request, and non-200s. */
async function batch(app, options) {
  let sent = 0;
  let failures = 0;
  const worker = async () => {
    while (sent < REQUESTS) {
      sent++;
      const res = await app.inject(options);
      if (res.statusCode !== 200) failures++;
      // Back to the event loop, as a server between its sockets' reads: light-my-request's null
      // socket finishes each write in an immediate, and a loop of promises alone would never run
      // them (every response kept until the end, the heap growing by 10 kB a request).
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const writesBefore = socketWrites();
  const cpuBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wall = Number(process.hrtime.bigint() - wallBefore) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpu: (cpu.user + cpu.system) / REQUESTS,
    user: cpu.user / REQUESTS,
    system: cpu.system / REQUESTS,
    wall: wall / REQUESTS,
    socketWrites: (socketWrites() - writesBefore) / REQUESTS,
    failures,
  };
}

async function startPortal(kind, portal) {
  const { app, ctx, address, stop } = await startInProcess(kind, portal);
  try {
    // Signed in over a real socket (fetch), through the real stages; measured by injection after.
    const codeFor = async (recipient) => {
      const row = await ctx.db
        .selectFrom('outbox')
        .select('params')
        .where('template', '=', 'mfa_code')
        .where('recipient', '=', recipient)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      return JSON.parse(row.params).code;
    };
    const cookie = await signInAdmin(address, codeFor, ADMIN);
    return { app, cookie, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const portal = await bundlePortal(target);
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ type: 'person', id: 'bench', email: 'bench@hygie.test' }));
await bare.ready();

const kinds = ['sqlite', ...((await postgresAvailable()) ? ['postgres'] : [])].filter(
  (kind) => !process.env.BENCH_KINDS || process.env.BENCH_KINDS.split(',').includes(kind),
);
const report = {
  date: new Date().toISOString(),
  root: path.basename(target),
  node: process.version,
  rounds: ROUNDS,
  requests: REQUESTS,
  concurrency: CONCURRENCY,
  results: {},
};
try {
  for (const kind of kinds) {
    const { app, cookie, stop } = await startPortal(kind, portal);
    try {
      const loads = {
        bare: () => batch(bare, { method: 'GET', url: '/bare' }),
        health: () => batch(app, { method: 'GET', url: '/api/health', headers: { cookie } }),
        me: () => batch(app, { method: 'GET', url: '/api/me', headers: { cookie } }),
      };
      const names = Object.keys(loads).filter((name) => ONLY.includes(name));
      // Warm up (JIT, the session user cache, the pool's connections).
      for (const name of names) await loads[name]();
      const runs = Object.fromEntries(names.map((name) => [name, []]));
      const heap = process.env.BENCH_HEAP_PROFILE ? new Session() : null;
      if (heap) {
        heap.connect();
        await heap.post('HeapProfiler.startSampling', {
          samplingInterval: 4096,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true,
        });
      }
      for (let round = 0; round < ROUNDS; round++) {
        // Each round in another order, so that a slower moment of the machine falls on each route.
        const order = round % 2 ? [...names].reverse() : names;
        for (const name of order) {
          const run = await loads[name]();
          if (run.failures > 0) throw new Error(`${name} on ${kind}: ${run.failures} non-200`);
          runs[name].push(run);
        }
      }
      if (heap) {
        const { profile } = await heap.post('HeapProfiler.stopSampling');
        const file = `${process.env.BENCH_HEAP_PROFILE}.${kind}.heapprofile`;
        fs.writeFileSync(
          file,
          JSON.stringify({ ...profile, requests: ROUNDS * REQUESTS * names.length }),
        );
        heap.disconnect();
        console.log(`heap profile: ${file}`);
      }
      const figures = {};
      for (const name of names) {
        const cpu = runs[name].map((r) => r.cpu);
        figures[name] = {
          cpuMicros: Number(median(cpu).toFixed(1)),
          cpuMin: Number(Math.min(...cpu).toFixed(1)),
          cpuMax: Number(Math.max(...cpu).toFixed(1)),
          userMicros: Number(median(runs[name].map((r) => r.user)).toFixed(1)),
          systemMicros: Number(median(runs[name].map((r) => r.system)).toFixed(1)),
          wallMicros: Number(median(runs[name].map((r) => r.wall)).toFixed(1)),
          socketWrites: Number(median(runs[name].map((r) => r.socketWrites)).toFixed(2)),
        };
      }
      const ratio = (a, b) =>
        figures[a] && figures[b]
          ? Number(median(runs[a].map((r, i) => r.cpu / runs[b][i].cpu)).toFixed(3))
          : null;
      report.results[kind] = {
        figures,
        bareOverMe: ratio('bare', 'me'),
        bareOverHealth: ratio('bare', 'health'),
      };
      console.log(
        `${kind} (${report.root}), ${ROUNDS} rounds of ${REQUESTS} injections, ${CONCURRENCY} in flight — CPU µs per request, median (min–max):`,
      );
      for (const [name, f] of Object.entries(figures)) {
        console.log(
          `  ${name.padEnd(7)} ${String(f.cpuMicros).padStart(6)} (${f.cpuMin}–${f.cpuMax})   user ${f.userMicros}  system ${f.systemMicros}  wall ${f.wallMicros}  socket writes ${f.socketWrites}`,
        );
      }
      console.log(
        `  bare ÷ /api/me ${report.results[kind].bareOverMe}, bare ÷ /api/health ${report.results[kind].bareOverHealth} (medians of the rounds' ratios)`,
      );
    } finally {
      await stop();
    }
  }
} finally {
  portal.cleanup();
  await bare.close();
}
writeReport('me-inject', report);
