// What a sign-in costs the portal's event loop, without the socket: POST /api/login with the right
// password (16 accounts in turn) through Fastify's `inject` in this one process, BENCH_CONCURRENCY
// at a time, and the CPU of this process's main thread (`process.threadCpuUsage()`) around each
// round, per sign-in. The hashes run on the portal's worker threads and are left out; the whole
// process's CPU is printed beside it. That event-loop time runs one sign-in after another in a
// process whatever its cores: it is what bounds one process's sign-ins a second on a machine with
// many cores (bench/hashing.mjs reads the same figure from /proc, over HTTP, with the client's and
// the socket's share). BENCH_CPU_PROFILE=FILE writes a CPU profile of the main thread over the
// measured rounds (`node bench/profile-summary.mjs FILE`: per sign-in, by function). The process's
// writes to its sockets a sign-in (the database's connections) are counted beside the times.
//
// The portal is bundled from the sources of BENCH_INJECT_ROOT (default this repository), as
// bench/me-inject.mjs does: alternate runs of two checkouts to compare two builds. Its messages go
// to relays that accept them (bench/message-sinks.mjs).
//
// BENCH_KINDS=sqlite|postgres, BENCH_ROUNDS (default 5), BENCH_SIGN_INS per round (default 400),
// BENCH_CONCURRENCY sign-ins in flight (default 8). BENCH_CLIENTS=new signs each in from an address
// never seen before (a client that is not yet one of the owner's: its attempt is reserved on the
// account's count too, in a transaction), instead of one address that soon is. One at a time
// (BENCH_CONCURRENCY=1) it also prints the time from a sign-in's request to its hash's start (the
// job posted to a hashing worker): the reads and the reservation on the hash's critical path;
// and the time from the hash's end (the worker's answer) to the sign-in's answer: the writes and
// the reply. BENCH_TIMELINE=1 (one at a time) prints a sign-in's steps beside it, each the median
// time since its request over the measured rounds: every statement sent to PostgreSQL and its
// answer (node-postgres's queries); on SQLite every statement's start and end (better-sqlite3's
// runs, synchronous: the time between two is the portal's own work, Kysely's included); the hash's
// start and end, the answer.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { bundlePortal, median, socketWrites, startInProcess } from './in-process.mjs';
import {
  patientSignUp,
  postgresAvailable,
  root,
  startMessageSinks,
  writeReport,
} from './portal.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ACCOUNTS = 16;
const PASSWORD = 'Quiet-Harbour-5127';
const target = path.resolve(process.env.BENCH_INJECT_ROOT ?? root);
const NEW_CLIENTS = process.env.BENCH_CLIENTS === 'new';
const TIMELINE = process.env.BENCH_TIMELINE === '1' && CONCURRENCY === 1;

/** The steps of the sign-in in flight, for BENCH_TIMELINE: each a name and when it happened. */
let steps = null;
function step(name, at = process.hrtime.bigint()) {
  steps?.push([name, at]);
}

/** When the last job was posted to a hashing worker (the portal's pool runs in this process). */
let hashPostedAt = 0n;
const postMessage = Worker.prototype.postMessage;
Worker.prototype.postMessage = function post(...args) {
  hashPostedAt = process.hrtime.bigint();
  step('hash started', hashPostedAt);
  return postMessage.apply(this, args);
};
/** When a hashing worker last answered (its message emitted on the main thread). */
let hashAnsweredAt = 0n;
const emit = Worker.prototype.emit;
Worker.prototype.emit = function emitted(event, ...args) {
  if (event === 'message') {
    hashAnsweredAt = process.hrtime.bigint();
    step('hash ended', hashAnsweredAt);
  }
  return emit.call(this, event, ...args);
};

/** A statement's verb and table, as a timeline names it ("insert sessions", "commit"). */
function statementName(text) {
  const verb = /^\s*(with|select|insert|update|delete|begin|commit|rollback)\b/i.exec(text)?.[1];
  const table = /\b(?:from|into|update)\s+"?(\w+)"?/i.exec(text)?.[1];
  return [verb?.toLowerCase() ?? 'statement', table].filter(Boolean).join(' ');
}

/**
 * Each statement the portal sends to PostgreSQL, and its answer, as steps of the timeline: the
 * node-postgres the bundle resolves (target's), not this script's.
 */
function traceStatements() {
  const pg = createRequire(path.join(target, 'apps', 'server', 'package.json'))('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function traced(config, ...rest) {
    const name = statementName(typeof config === 'string' ? config : (config?.text ?? ''));
    step(`sent ${name}`);
    const result = query.call(this, config, ...rest);
    if (steps && typeof result?.then === 'function') {
      const those = steps;
      result.then(
        () => those.push([`answered ${name}`, process.hrtime.bigint()]),
        () => undefined,
      );
    }
    return result;
  };
}

/**
 * Each statement the portal runs on SQLite, its start and its end, as steps of the timeline: the
 * better-sqlite3 the bundle resolves (target's). Its statements run synchronously, so what lies
 * between one's end and the next one's start is the portal's own work on the event loop.
 */
function traceSqliteStatements() {
  const Database = createRequire(path.join(target, 'apps', 'server', 'package.json'))(
    'better-sqlite3',
  );
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  for (const method of ['run', 'get', 'all']) {
    const original = statement[method];
    statement[method] = function traced(...args) {
      const name = `${statementName(this.source)} (${method})`;
      step(`started ${name}`);
      const result = original.apply(this, args);
      step(`ended ${name}`);
      return result;
    };
  }
}
if (TIMELINE) {
  traceStatements();
  traceSqliteStatements();
}

/**
 * The timelines' most frequent sequence of steps, each step the median of its times since the
 * request (µs).
 */
function medianTimeline(timelines) {
  const bySequence = new Map();
  for (const timeline of timelines) {
    const key = timeline.map(([name]) => name).join('|');
    bySequence.set(key, [...(bySequence.get(key) ?? []), timeline]);
  }
  const [same] = [...bySequence.values()].sort((a, b) => b.length - a.length);
  if (!same) return null;
  return {
    signIns: same.length,
    of: timelines.length,
    steps: same[0].map(([name], i) => ({
      name,
      micros: Number(median(same.map((t) => Number(t[i][1] - t[0][1]) / 1000)).toFixed(1)),
    })),
  };
}
let addresses = 0;
/** An address of 10.0.0.0/8 not used before in this run, for BENCH_CLIENTS=new. */
function newAddress() {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** The Set-Cookie pairs of an injected answer, as a Cookie header's parts. */
function cookiesOf(res) {
  const set = res.headers['set-cookie'];
  return (Array.isArray(set) ? set : set ? [set] : []).map((c) => c.split(';')[0]);
}

/** An anonymous anti-forgery cookie and header, and ACCOUNTS registered accounts. */
async function prepare(app) {
  const xsrf = cookiesOf(await app.inject({ method: 'GET', url: '/api/health' })).find((c) =>
    c.startsWith('XSRF-TOKEN='),
  );
  if (!xsrf) throw new Error('no anti-forgery cookie');
  const headers = {
    'content-type': 'application/json',
    cookie: xsrf,
    'x-xsrf-token': xsrf.slice('XSRF-TOKEN='.length),
  };
  const terms = (await app.inject({ method: 'GET', url: '/api/cgu' })).json();
  const emails = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const email = `inject${i}@bench.test`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/register',
      headers,
      payload: patientSignUp({ email, password: PASSWORD, terms, index: i }),
    });
    if (res.statusCode !== 201) throw new Error(`register ${res.statusCode}: ${res.body}`);
    emails.push(email);
  }
  return { headers, emails };
}

/**
 * SIGN_INS sign-ins, CONCURRENCY at a time, each answered with `status` (the next stage's): the
 * main thread's and the process's CPU µs and the wall µs per sign-in.
 */
async function round(app, { headers, emails }, status) {
  let sent = 0;
  const beforeHash = [];
  const afterHash = [];
  const timelines = [];
  const worker = async () => {
    while (sent < SIGN_INS) {
      const username = emails[sent++ % emails.length];
      const started = process.hrtime.bigint();
      if (TIMELINE) steps = [['request', started]];
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        headers,
        payload: { username, password: PASSWORD },
        ...(NEW_CLIENTS ? { remoteAddress: newAddress() } : {}),
      });
      if (res.statusCode !== status) {
        throw new Error(`sign-in answered ${res.statusCode} (${res.body}), not ${status}`);
      }
      if (CONCURRENCY === 1) {
        const answered = process.hrtime.bigint();
        beforeHash.push(Number(hashPostedAt - started) / 1000);
        afterHash.push(Number(answered - hashAnsweredAt) / 1000);
        if (TIMELINE) {
          step('answer', answered);
          timelines.push(steps);
          steps = null;
        }
      }
      // Back to the event loop, as a server between its sockets' reads (bench/me-inject.mjs).
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const writes = socketWrites();
  const thread = process.threadCpuUsage();
  const whole = process.cpuUsage();
  const wall = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const threadUsed = process.threadCpuUsage(thread);
  const wholeUsed = process.cpuUsage(whole);
  return {
    eventLoop: (threadUsed.user + threadUsed.system) / SIGN_INS,
    system: threadUsed.system / SIGN_INS,
    process: (wholeUsed.user + wholeUsed.system) / SIGN_INS,
    wall: Number(process.hrtime.bigint() - wall) / 1000 / SIGN_INS,
    socketWrites: (socketWrites() - writes) / SIGN_INS,
    beforeHash: CONCURRENCY === 1 ? median(beforeHash) : null,
    afterHash: CONCURRENCY === 1 ? median(afterHash) : null,
    timelines,
  };
}

const portal = await bundlePortal(target);
const sinks = await startMessageSinks();
const kinds = ['sqlite', ...((await postgresAvailable()) ? ['postgres'] : [])].filter(
  (kind) => !process.env.BENCH_KINDS || process.env.BENCH_KINDS.split(',').includes(kind),
);
const report = {
  date: new Date().toISOString(),
  root: path.basename(target),
  node: process.version,
  cores: os.availableParallelism(),
  rounds: ROUNDS,
  signIns: SIGN_INS,
  concurrency: CONCURRENCY,
  clients: NEW_CLIENTS ? 'new' : 'one',
  results: {},
};
try {
  for (const kind of kinds) {
    const { app, stop } = await startInProcess(kind, portal, sinks.env);
    try {
      const accounts = await prepare(app);
      // The answer of a right password (the next stage); a refusal would time something else.
      const first = await app.inject({
        method: 'POST',
        url: '/api/login',
        headers: accounts.headers,
        payload: { username: accounts.emails[0], password: PASSWORD },
      });
      if (
        first.statusCode >= 500 ||
        first.statusCode === 429 ||
        first.json().code === 'bad_credentials'
      ) {
        throw new Error(`sign-in refused: ${first.statusCode} ${first.body}`);
      }
      // Warm-up (JIT, caches, the pool's connections).
      await round(app, accounts, first.statusCode);
      const profiler = process.env.BENCH_CPU_PROFILE ? new Session() : null;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
        await profiler.post('Profiler.start');
      }
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await round(app, accounts, first.statusCode));
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        const file = `${process.env.BENCH_CPU_PROFILE}.${kind}.cpuprofile`;
        fs.writeFileSync(file, JSON.stringify({ ...profile, requests: ROUNDS * SIGN_INS }));
        profiler.disconnect();
        console.log(`CPU profile: ${file}`);
      }
      const figure = (key) => Number(median(runs.map((r) => r[key])).toFixed(1));
      const range = (key) =>
        `${Math.min(...runs.map((r) => r[key])).toFixed(0)}–${Math.max(...runs.map((r) => r[key])).toFixed(0)}`;
      report.results[kind] = {
        eventLoopMicros: figure('eventLoop'),
        eventLoopSystemMicros: figure('system'),
        processMicros: figure('process'),
        wallMicros: figure('wall'),
        socketWrites: figure('socketWrites'),
        beforeHashMicros: CONCURRENCY === 1 ? figure('beforeHash') : null,
        afterHashMicros: CONCURRENCY === 1 ? figure('afterHash') : null,
        timeline: TIMELINE ? medianTimeline(runs.flatMap((r) => r.timelines)) : null,
        runs: runs.map(({ timelines: _timelines, ...run }) => run),
      };
      console.log(
        `${kind} (${report.root}), ${ROUNDS} rounds of ${SIGN_INS} sign-ins, ${CONCURRENCY} in flight, ${NEW_CLIENTS ? 'each from a new address' : 'from one address'}, answered ${first.statusCode}, µs a sign-in, median (min–max):`,
      );
      console.log(
        `  event loop ${figure('eventLoop')} (${range('eventLoop')}), of it system ${figure('system')}; whole process ${figure('process')}; wall ${figure('wall')}; socket writes a sign-in ${figure('socketWrites')}${CONCURRENCY === 1 ? `; to the hash's start ${figure('beforeHash')} (${range('beforeHash')}), from its end to the answer ${figure('afterHash')} (${range('afterHash')})` : ''}`,
      );
      const { timeline } = report.results[kind];
      if (timeline) {
        console.log(
          `  a sign-in's steps, µs since its request (median of the ${timeline.signIns} of ${timeline.of} sign-ins whose steps were these):`,
        );
        for (const { name, micros } of timeline.steps) {
          console.log(`    ${String(micros).padStart(9)}  ${name}`);
        }
      }
    } finally {
      await stop();
    }
  }
} finally {
  portal.cleanup();
  await sinks.stop();
}
writeReport('sign-in-inject', report);
