// Sign-in against the hashing limit, measured in one run on this machine:
// 1. POST /api/login (right password, 16 accounts) vs raw argon2id verifications of the same
//    parameters (bench/argon2-baseline.mjs), at 1, 2, 4 and 8 at a time: sign-ins ÷ verifications.
//    Beside them, a bare Fastify route that only verifies the password (bench/bare-hash-server.mjs),
//    loaded by the same client: the most an HTTP sign-in gets on this machine when it does nothing
//    but hash, so that the part the portal's own work takes (sign-in ÷ bare route) is told apart
//    from the part HTTP and the client take (bare route ÷ raw).
//    Each level alternates the three in BENCH_ROUNDS slices of BENCH_DURATION ÷ BENCH_ROUNDS seconds,
//    so that all see the same load when other work shares the machine.
//    Beside each level, the CPU the server's event loop (its main thread) spends a sign-in, read
//    from Linux's /proc, and ÷ a raw verification's time: the part of a sign-in that runs one
//    after another in a process whatever its cores, and so the most sign-ins one process can take.
// 2. GET /api/me's p99 at a steady rate, idle and then while a storm of sign-ins saturates the
//    hashing workers: storm p99 ÷ idle p99, in BENCH_STORM_ROUNDS rounds. Each round alternates
//    the idle and the storm phase in BENCH_STORM_SLICES slices (4) of BENCH_DURATION ÷ slices
//    seconds and pools each phase's answers, so that a pause of the shared machine falls on either
//    phase alike; a p99 of a few hundred requests still moves with such pauses: the median of the
//    rounds is the figure, with the rounds that met the goal. A storm's first BENCH_STORM_ONSET_MS
//    (1 s), when its sign-ins all arrive at once and the hashing is not yet saturated, is measured
//    apart (its p99 ÷ idle is printed beside the goal's). Beside it, the server's own event-loop delay, p99 and
//    longest, over each phase (its metrics, prom-client's `nodejs_eventloop_lag_*_seconds`): what
//    the requests wait for inside the server, without the client's and the network's share.
//    The storm's sign-ins come from a process of their own (bench/sign-in-load.mjs), ready before
//    it starts: run from this process, the start of sixteen connections and their answers delayed
//    this process's own /api/me requests, and that delay was counted as the server's.
// 3. A flood of sign-ins from one address (BENCH_FLOOD at once, through the proxy header the server
//    trusts): another address's sign-ins one after another, their median time idle and during the
//    flood. The hashing queue serves each address in turn, so the flood adds about one
//    verification per worker to the other address's wait, not the flood's whole queue. The flood
//    too comes from the loader process, so that the probe's times are the server's.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import {
  freePort,
  patientSignUp,
  root,
  startMessageSinks,
  startPortal,
  startProcess,
  stopProcess,
  waitFor,
} from './portal.mjs';
import { signInLoad, startSignInLoader } from './sign-in-load.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,2,4,8').split(',').map(Number);
const ACCOUNTS = 16;
const PASSWORD = 'Quiet-Harbour-5127';
const ME_RATE = Number(process.env.BENCH_ME_RATE ?? 100);
const STORM = Number(process.env.BENCH_STORM ?? 16);
const STORM_ROUNDS = Number(process.env.BENCH_STORM_ROUNDS ?? 3);
const STORM_SLICES = Number(process.env.BENCH_STORM_SLICES ?? 4);
const STORM_ONSET_MS = Number(process.env.BENCH_STORM_ONSET_MS ?? 1000);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 32);
// BENCH_WORKERS=N serves with N processes (WORKERS, PostgreSQL); BENCH_DATABASE=postgres serves one
// process on PostgreSQL; the default is the embedded SQLite.
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const DATABASE = WORKERS > 1 ? 'postgres' : (process.env.BENCH_DATABASE ?? 'sqlite');
const PROBES = 20;

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION, ...options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

/** Clock ticks a second, for /proc's CPU times (Linux); null elsewhere. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || null;
  } catch {
    return null;
  }
})();

/** CPU ms the main thread of process `pid` has used so far (Linux's /proc); null elsewhere. */
function mainThreadCpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

/**
 * CPU ms the event loops of the server have used so far: its process's main thread, and with
 * BENCH_WORKERS its workers' (the primary's children; the primary itself serves nothing). Linux's
 * /proc; null elsewhere.
 */
function eventLoopCpuMs(pid) {
  if (TICKS === null) return null;
  try {
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return [pid, ...children].reduce((sum, each) => sum + mainThreadCpuMs(each), 0);
  } catch {
    return null;
  }
}

/** The metrics' bearer token (the server serves /metrics only with one). */
const METRICS_TOKEN = randomBytes(24).toString('base64url');

/**
 * The server's event-loop delay since the last call, p99 and longest, in ms (prom-client resets
 * its histogram at each scrape): a scrape before a phase starts it afresh, one after reads it.
 * Node measures a timer set every 10 ms, so each sample holds those 10 ms: the figures are above
 * the smallest sample, the wait itself.
 */
async function eventLoopDelay(base) {
  const res = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const lines = (await res.text()).split('\n');
  const value = (name) => {
    const line = lines.find((l) => l.startsWith(`${name} `));
    return line ? Number(line.split(' ')[1]) * 1000 : NaN;
  };
  const min = value('nodejs_eventloop_lag_min_seconds');
  return {
    p99: value('nodejs_eventloop_lag_p99_seconds') - min,
    max: value('nodejs_eventloop_lag_max_seconds') - min,
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Waits until the server has no message left to send (its outbox's pending gauges all 0), and a
 * further 300 ms: what a storm left behind is done before an idle phase is measured.
 */
async function settle(base) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const pending = (await res.text())
      .split('\n')
      .filter((line) => line.startsWith('hygie_outbox_pending{'))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    if (pending === 0) break;
    if (Date.now() > deadline) throw new Error(`${pending} messages still pending after a storm`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/** The value below which `share` of `values` fall (nearest rank). */
function percentile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)] ?? NaN;
}

/**
 * GET /api/me at ME_RATE a second on 4 connections for `seconds`, each answer's time (ms) pushed
 * into `into`; fails on any answer but 200.
 */
async function steadyMe(me, seconds, into) {
  const result = await load({
    ...me,
    connections: 4,
    overallRate: ME_RATE,
    duration: seconds,
    setupClient: (client) => client.on('response', (status, bytes, ms) => into.push(ms)),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error('/api/me failed');
  return result;
}

async function baseline(concurrency, seconds) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(import.meta.dirname, 'argon2-baseline.mjs')],
    { env: { ...process.env, CONCURRENCY: String(concurrency), DURATION: String(seconds) } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)).perSecond;
}

/** An anonymous anti-forgery cookie and header, and `count` registered accounts. */
async function prepare(base) {
  const health = await fetch(`${base}/api/health`);
  const xsrf = health.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('XSRF-TOKEN='));
  if (!xsrf) throw new Error('no anti-forgery cookie');
  const headers = {
    'content-type': 'application/json',
    cookie: xsrf,
    'x-xsrf-token': xsrf.slice('XSRF-TOKEN='.length),
  };
  const terms = await (await fetch(`${base}/api/cgu`)).json();
  const emails = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const email = `storm${i}@bench.test`;
    const res = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify(patientSignUp({ email, password: PASSWORD, terms, index: i })),
    });
    if (res.status !== 201) throw new Error(`register ${res.status}: ${await res.text()}`);
    emails.push(email);
  }
  // The right password answers the next stage of the sign-in (the figure measures passwords that
  // pass): its status is the one every measured answer must have. A refusal here (a wrong
  // password, a throttle) would make the bench time something else.
  const statuses = new Set();
  for (const email of emails) {
    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: email, password: PASSWORD }),
    });
    const { code } = await res.json();
    if (res.status >= 500 || REFUSALS.has(code)) {
      throw new Error(`sign-in of ${email} refused: ${res.status} ${code}`);
    }
    statuses.add(String(res.status));
  }
  return { headers, emails, statuses };
}

const REFUSALS = new Set(['bad_credentials', 'too_many_attempts', 'wait_before_retry']);

/** Fails unless every answer had a stage's status (or, with `allow503`, a full hashing queue's). */
function assertStages(result, statuses, label, allow503 = false) {
  const unexpected = Object.keys(result.statusCodeStats ?? {}).filter(
    (status) => !statuses.has(status) && !(allow503 && status === '503'),
  );
  if (result.errors > 0 || unexpected.length > 0) {
    throw new Error(
      `${label}: ${result.errors} errors, unexpected statuses ${unexpected.join(', ')}`,
    );
  }
}

/** The bare hashing route (bench/bare-hash-server.mjs), ready: `{ base, stop() }`. */
async function startBareHashRoute() {
  const port = await freePort();
  const child = startProcess(['bench/bare-hash-server.mjs'], {
    PORT: String(port),
    BENCH_PASSWORD: PASSWORD,
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => stopProcess(child);
  try {
    await waitFor(`${base}/ready`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, stop };
}

/** `PROBES` sign-ins one after another from `address` (the proxy's header): their times in ms. */
async function probeSignIns(base, { headers, emails, statuses }, address) {
  const times = [];
  for (let i = 0; i < PROBES; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { ...headers, 'x-forwarded-for': address },
      body: JSON.stringify({ username: emails[i % emails.length], password: PASSWORD }),
    });
    await res.arrayBuffer();
    if (!statuses.has(String(res.status))) throw new Error(`probe sign-in answered ${res.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** autocannon options for sign-ins spread over the accounts, `connections` at a time. */
function signIns(base, accounts, connections) {
  return signInLoad(signInsAt(base, accounts, connections));
}

/** What signInLoad and the loader process take for sign-ins spread over the accounts. */
function signInsAt(base, { headers, emails }, connections, extraHeaders = {}) {
  return {
    base,
    headers: { ...headers, ...extraHeaders },
    usernames: emails,
    password: PASSWORD,
    connections,
  };
}

// One proxy hop trusted: the flood and the probe tell their addresses by X-Forwarded-For.
// The sign-ins' second-factor codes are sent, once each, as to a working relay.
const sinks = await startMessageSinks();
const portal = await startPortal(DATABASE, {
  ...sinks.env,
  METRICS_TOKEN,
  TRUST_PROXY: '1',
  WORKERS: String(WORKERS),
});
const bareRoute = await startBareHashRoute().catch(async (err) => {
  await Promise.all([portal.stop(), sinks.stop()]);
  throw err;
});
// The storm and the flood come from a process of their own, ready before they start: the
// measuring client's event loop then has nothing to do but measure.
const loader = await startSignInLoader().catch(async (err) => {
  await Promise.all([portal.stop(), bareRoute.stop(), sinks.stop(), loader.close()]);
  throw err;
});
try {
  const accounts = await prepare(portal.base);
  const cpus = os.availableParallelism();
  console.log(
    `sign-in vs raw argon2id (m=19456, t=2, p=1), ${DURATION} s each in ${ROUNDS} alternating slices, ${cpus} cores; the portal on ${DATABASE}, ${WORKERS} process(es)`,
  );
  const rows = [];
  for (const c of LEVELS) {
    const slice = DURATION / ROUNDS;
    let raw = 0;
    let bare = 0;
    let perSecond = 0;
    let cpuMs = 0;
    let signedIn = 0;
    for (let round = 0; round < ROUNDS; round++) {
      raw += (await baseline(c, slice)) / ROUNDS;
      const bareResult = await load({
        ...signIns(bareRoute.base, accounts, c),
        url: `${bareRoute.base}/login`,
        duration: slice,
      });
      assertStages(bareResult, accounts.statuses, `bare hashing route at ${c}`);
      bare += bareResult.requests.total / slice / ROUNDS;
      const cpuBefore = eventLoopCpuMs(portal.pid);
      const result = await load({ ...signIns(portal.base, accounts, c), duration: slice });
      const cpuAfter = eventLoopCpuMs(portal.pid);
      assertStages(result, accounts.statuses, `sign-ins at ${c}`);
      perSecond += result.requests.total / slice / ROUNDS;
      if (cpuBefore !== null && cpuAfter !== null) cpuMs += cpuAfter - cpuBefore;
      signedIn += result.requests.total;
    }
    // A raw verification's time: one at a time, each takes 1 / (verifications a second).
    const verifyMs = 1000 / (raw / Math.min(c, cpus));
    const eventLoopMs = TICKS === null || signedIn === 0 ? null : cpuMs / signedIn;
    rows.push({
      concurrency: c,
      raw,
      bareRoute: bare,
      signIns: perSecond,
      ratio: perSecond / raw,
      bareRouteRatio: bare / raw,
      ratioToBareRoute: perSecond / bare,
      eventLoopMsPerSignIn: eventLoopMs,
      eventLoopShareOfVerify: eventLoopMs === null ? null : eventLoopMs / verifyMs,
    });
    const loop =
      eventLoopMs === null
        ? ''
        : `; event loop ${eventLoopMs.toFixed(2)} ms a sign-in (${(eventLoopMs / verifyMs).toFixed(3)} × a verification)`;
    console.log(
      `  ${String(c).padStart(2)} at once: raw ${raw.toFixed(1)}/s, sign-in ${perSecond.toFixed(1)}/s, ratio ${(perSecond / raw).toFixed(3)} (goal ≥ 0.95)${loop}`,
    );
    console.log(
      `             a bare route that only hashes: ${bare.toFixed(1)}/s, ÷ raw ${(bare / raw).toFixed(3)}; sign-in ÷ bare route ${(perSecond / bare).toFixed(3)}`,
    );
  }
  // At the most sign-ins at once (BENCH_CONCURRENCY may list the levels in any order).
  const busiest = rows.reduce((a, b) => (b.concurrency > a.concurrency ? b : a), rows[0]);
  if (busiest?.eventLoopMsPerSignIn) {
    console.log(
      `  one process's event loop takes at most ${Math.round(1000 / busiest.eventLoopMsPerSignIn)} sign-ins a second (${busiest.concurrency} at once); more processes (nodes) take more`,
    );
  }

  const me = { url: `${portal.base}/api/me`, headers: { cookie: portal.cookie } };
  await load({ ...me, connections: 4, duration: 2 });
  // Each round alternates idle and storm in STORM_SLICES slices and pools each phase's answers:
  // a pause of the shared machine then falls on both phases alike, not on one round's p99.
  const slice = DURATION / STORM_SLICES;
  const stormRounds = [];
  for (let round = 0; round < STORM_ROUNDS; round++) {
    const idleMs = [];
    const onsetMs = [];
    const stormMs = [];
    const idleDelays = [];
    const stormDelays = [];
    const signInRates = [];
    let refused503 = 0;
    await eventLoopDelay(portal.base);
    for (let i = 0; i < STORM_SLICES; i++) {
      await steadyMe(me, slice, idleMs);
      idleDelays.push(await eventLoopDelay(portal.base));
      // The storm runs a little longer than the measure. Its first STORM_ONSET_MS, every sign-in
      // arriving at once before the hashing is saturated, is measured apart: the onset.
      const storming = loader.run(
        signInsAt(portal.base, accounts, STORM),
        slice + STORM_ONSET_MS / 1000 + 0.5,
      );
      await steadyMe(me, STORM_ONSET_MS / 1000, onsetMs);
      await steadyMe(me, slice, stormMs);
      const storm = await storming;
      stormDelays.push(await eventLoopDelay(portal.base));
      // The storm's aftermath (its codes still being sent) is no part of the next idle phase.
      await settle(portal.base);
      await eventLoopDelay(portal.base);
      assertStages(storm, accounts.statuses, 'the storm', true);
      signInRates.push(storm.requests.average);
      refused503 += storm['5xx'] ?? 0;
    }
    const idleP99 = percentile(idleMs, 0.99);
    const stormP99 = percentile(stormMs, 0.99);
    const ratio = stormP99 / Math.max(idleP99, 1);
    const onsetP99 = percentile(onsetMs, 0.99);
    const delays = (list) => ({
      p99: median(list.map((d) => d.p99)),
      max: Math.max(...list.map((d) => d.max)),
    });
    const idleDelay = delays(idleDelays);
    const stormDelay = delays(stormDelays);
    const signInsPerSecond = median(signInRates);
    stormRounds.push({
      idleP99Ms: idleP99,
      stormP99Ms: stormP99,
      onsetP99Ms: onsetP99,
      answers: { idle: idleMs.length, onset: onsetMs.length, storm: stormMs.length },
      ratio,
      idleEventLoopDelayMs: idleDelay,
      stormEventLoopDelayMs: stormDelay,
      signInsPerSecond,
      refused503,
    });
    console.log(
      `/api/me at ${ME_RATE}/s, round ${round + 1} (${STORM_SLICES} slices of each, ${idleMs.length} and ${stormMs.length} answers): p99 idle ${idleP99.toFixed(1)} ms, during ${STORM} concurrent sign-ins (${signInsPerSecond.toFixed(1)}/s, ${refused503} refused 503) ${stormP99.toFixed(1)} ms, ratio ${ratio.toFixed(2)}; in the storms' first ${STORM_ONSET_MS} ms (${onsetMs.length} answers) ${onsetP99.toFixed(1)} ms, ÷ idle ${(onsetP99 / Math.max(idleP99, 1)).toFixed(2)}; server event-loop delay p99 / longest: idle ${idleDelay.p99.toFixed(1)} / ${idleDelay.max.toFixed(1)} ms, storm ${stormDelay.p99.toFixed(1)} / ${stormDelay.max.toFixed(1)} ms`,
    );
  }
  const stormRatio = median(stormRounds.map((r) => r.ratio));
  const met = stormRounds.filter((r) => r.ratio <= 2).length;
  // BENCH_STORM_ROUNDS=0 leaves the storm out.
  if (stormRounds.length > 0)
    console.log(
      `storm p99 ÷ idle p99 (median of ${stormRounds.length}): ${stormRatio.toFixed(2)} (goal ≤ 2) ${stormRatio <= 2 ? 'met' : 'NOT met'}, met in ${met} of ${stormRounds.length}; the storms' onset ÷ idle (median) ${median(stormRounds.map((r) => r.onsetP99Ms / Math.max(r.idleP99Ms, 1))).toFixed(2)}; server event-loop delay p99 (median): idle ${median(stormRounds.map((r) => r.idleEventLoopDelayMs.p99)).toFixed(1)} ms, storm ${median(stormRounds.map((r) => r.stormEventLoopDelayMs.p99)).toFixed(1)} ms`,
    );

  // BENCH_FLOOD=0 leaves the flood out (e.g. to measure the sign-in levels alone).
  const flood = FLOOD > 0 ? await measureFlood() : null;

  async function measureFlood() {
    const idleProbe = median(await probeSignIns(portal.base, accounts, '198.51.100.9'));
    // The flood lasts until the probe is done, however long its sign-ins wait.
    const flooding = loader.run(
      signInsAt(portal.base, accounts, FLOOD, { 'x-forwarded-for': '203.0.113.7' }),
      3600,
    );
    // Awaited after the probe; a load that fails meanwhile is its error then, not an unhandled one.
    flooding.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const floodProbe = median(await probeSignIns(portal.base, accounts, '198.51.100.9'));
    loader.stop();
    const flood = await flooding;
    assertStages(flood, accounts.statuses, 'the flood', true);
    console.log(
      `a flood of ${FLOOD} sign-ins at once from one address (${flood.requests.average.toFixed(1)}/s, ${flood['5xx'] ?? 0} refused 503): another address's sign-in, median of ${PROBES}, ${idleProbe.toFixed(0)} ms idle, ${floodProbe.toFixed(0)} ms during it (× ${(floodProbe / idleProbe).toFixed(2)})`,
    );
    return {
      connections: FLOOD,
      signInsPerSecond: flood.requests.average,
      refused503: flood['5xx'] ?? 0,
      otherAddressMedianMs: { idle: idleProbe, during: floodProbe },
    };
  }

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus,
    cpuModel: os.cpus()[0]?.model,
    database: DATABASE,
    workers: WORKERS,
    durationSeconds: DURATION,
    rounds: ROUNDS,
    signIn: rows,
    // Null for a part the run left out (summary.mjs then shows no row for it).
    storm:
      stormRounds.length > 0
        ? {
            meRate: ME_RATE,
            signInConnections: STORM,
            ratio: stormRatio,
            metInRounds: met,
            rounds: stormRounds,
          }
        : null,
    flood,
  };
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  const file = path.join(
    import.meta.dirname,
    'results',
    `hashing-${report.date.replace(/[:.]/g, '-')}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
} finally {
  await Promise.all([portal.stop(), bareRoute.stop(), sinks.stop(), loader.close()]);
}
