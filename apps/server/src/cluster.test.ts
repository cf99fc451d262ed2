import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { randomToken } from './lib/tokens.js';
import { TEST_DATABASE_URL } from './test/helpers.js';
import { freePort, serverEntry, STARTUP_MS } from './test/server-process.js';

const TOKEN = 'cluster-scraper-token-0123456789';

/** The JSON lines the processes wrote (pino): the fields the tests read. */
const logLine = z.looseObject({
  pid: z.number(),
  msg: z.string().optional(),
  worker: z.number().optional(),
  restartInMs: z.number().optional(),
  exitCode: z.number().optional(),
  req: z.looseObject({ url: z.string() }).optional(),
});
type LogLine = z.infer<typeof logLine>;

/** The server of WORKERS processes: the primary's process, its output, its exit. */
interface Cluster {
  primary: ChildProcess;
  base: string;
  lines: () => LogLine[];
  stderr: () => string;
  exited: Promise<number | null>;
}

async function startCluster(env: Record<string, string>): Promise<Cluster> {
  const port = await freePort();
  let stdout = '';
  let stderr = '';
  const primary = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '0',
      WEB_DIST_DIR: path.join(os.tmpdir(), 'hygie-no-web-dist'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  primary.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  primary.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => primary.on('exit', resolve));
  const lines = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => logLine.parse(JSON.parse(line)));
  const cluster = {
    primary,
    base: `http://127.0.0.1:${port}`,
    lines,
    stderr: () => stderr,
    exited,
  };
  started.push(cluster);
  return cluster;
}

/** Every primary started: a test failing before its own ends leaves none behind (its workers, their
 * primary gone, drain and exit on their own). */
const started: Cluster[] = [];
afterAll(() => {
  for (const cluster of started) cluster.primary.kill('SIGKILL');
});

/** Waits until `test` holds of the cluster's log lines; returns them then. */
async function untilLogged(
  cluster: Cluster,
  test: (lines: LogLine[]) => boolean,
  timeoutMs = STARTUP_MS,
): Promise<LogLine[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = cluster.lines();
    if (test(lines)) return lines;
    if (Date.now() > deadline) {
      throw new Error(`not logged in time:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const serving = (lines: LogLine[]) =>
  lines.filter((l) => l.msg === 'worker serving').map((l) => l.worker);

/** A GET on a connection of its own (the kernel hands each new connection to one worker). */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

interface ScrapeAnswer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** A scrape on a connection of its own, whatever its status. */
function scrapeOnNewConnection(url: string): Promise<ScrapeAnswer> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    http
      .get(url, { agent: false, headers, timeout: 20_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter, body });
        });
      })
      .on('timeout', function (this: http.ClientRequest) {
        this.destroy(new Error('no answer'));
      })
      .on('error', reject);
  });
}

async function scrape(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The workers that have served and are alive now, in the order they started serving. */
function aliveWorkers(cluster: Cluster): number[] {
  return serving(cluster.lines()).filter((pid): pid is number => pid !== undefined && isAlive(pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a server of several processes (WORKERS)', () => {
  it(
    'refuses more than one process on SQLite before forking any (exit 2)',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-workers-sqlite-'));
      try {
        const cluster = await startCluster({ WORKERS: '2', DATA_DIR: dataDir });
        expect(await cluster.exited).toBe(2);
        expect(cluster.stderr()).toContain('WORKERS above 1 needs PostgreSQL (DATABASE_URL)');
        expect(fs.existsSync(path.join(dataDir, 'hygie.sqlite'))).toBe(false);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    STARTUP_MS,
  );

  it(
    'exits 1 when its first worker cannot start (no database), forking no other',
    async () => {
      const cluster = await startCluster({
        WORKERS: '3',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
      });
      expect(await cluster.exited).toBe(1);
      const lines = cluster.lines();
      expect(lines.filter((l) => l.msg === 'worker could not start')).toHaveLength(1);
      expect(serving(lines)).toEqual([]);
      expect(cluster.stderr()).toContain('ECONNREFUSED');
    },
    STARTUP_MS,
  );
});

describe.skipIf(!TEST_DATABASE_URL)('a server of several processes (WORKERS) on PostgreSQL', () => {
  const schema = `t_workers_${randomToken(6)
    .replace(/[^a-zA-Z0-9]/g, '')
    .toLowerCase()}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-workers-'));
  let cluster: Cluster;
  const admin = () => new pg.Client({ connectionString: TEST_DATABASE_URL });

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    const databaseUrl = new URL(TEST_DATABASE_URL ?? '');
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    // No data keys configured: the first worker generates them into DATA_DIR, the second reads
    // them (a second generating its own would refuse the database's sealed values).
    cluster = await startCluster({
      WORKERS: '2',
      DATABASE_URL: databaseUrl.href,
      DATA_DIR: dataDir,
      METRICS_TOKEN: TOKEN,
    });
    // Two starts one after the other: each may take up to STARTUP_MS on a loaded runner.
    await untilLogged(cluster, (lines) => serving(lines).length === 2, STARTUP_MS * 2 - 5_000);
  }, STARTUP_MS * 2);

  afterAll(async () => {
    cluster.primary.kill('SIGKILL');
    for (const line of cluster.lines()) {
      if (line.worker !== undefined && isAlive(line.worker)) process.kill(line.worker, 'SIGKILL');
    }
    const client = admin();
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from every worker, and a scrape of any answers the whole server once', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 24 }, () => getOnNewConnection(`${cluster.base}/api/cgu`)),
    );
    expect(statuses).toEqual(Array(24).fill(200));
    const lines = await untilLogged(
      cluster,
      (all) => all.filter((l) => l.req?.url === '/api/cgu').length === 24,
      10_000,
    );
    const workers = new Set(serving(lines));
    const servedBy = new Set(lines.filter((l) => l.req?.url === '/api/cgu').map((l) => l.pid));
    expect(servedBy.size).toBe(2);
    for (const pid of servedBy) expect(workers.has(pid)).toBe(true);

    // A gauge every process reads from the database counts once, not once a process.
    const client = admin();
    await client.connect();
    await client.query(`set search_path to ${schema}`);
    for (let i = 0; i < 3; i++) {
      await client.query(
        `insert into outbox (id, channel, recipient, template, language, brand, params, status, next_attempt_at, created_at)
         values ($1, 'email', 'a@hygie.test', 'verify_email', 'fr', 'hygie', '{}', 'failed', 0, 0)`,
        [`failed-${i}`],
      );
    }
    await client.end();

    // Each worker counted its share of the requests; every scrape, whichever worker it reaches,
    // answers the sum.
    for (let i = 0; i < 4; i++) {
      const metrics = await scrape(cluster.base);
      expect(
        sample(
          metrics,
          'hygie_http_request_duration_seconds_count{method="GET",route="/api/cgu",status="200"}',
        ),
      ).toBe(24);
      expect(sample(metrics, 'hygie_outbox_failed{channel="email"}')).toBe(3);
      expect(sample(metrics, 'hygie_workers_serving')).toBe(2);
      expect(sample(metrics, 'hygie_worker_restarts_total')).toBe(0);
    }
  }, 60_000);

  it(
    'replaces a worker that dies, after a wait that doubles while its replacements die young',
    async () => {
      const [first] = serving(cluster.lines());
      if (first === undefined) throw new Error('no worker');
      process.kill(first, 'SIGKILL');
      let lines = await untilLogged(cluster, (all) => serving(all).length === 3);
      const died = lines.filter((l) => l.msg === 'worker died: another takes its place');
      expect(died.map((l) => [l.worker, l.restartInMs])).toEqual([[first, 1000]]);
      const replacement = serving(lines)[2];
      if (replacement === undefined) throw new Error('no replacement');
      expect(isAlive(first)).toBe(false);
      // While one starts, the other serves every request.
      expect(await getOnNewConnection(`${cluster.base}/api/cgu`)).toBe(200);

      // Dead within seconds of its start: the next wait is twice the first.
      process.kill(replacement, 'SIGKILL');
      lines = await untilLogged(cluster, (all) => serving(all).length === 4);
      expect(
        lines
          .filter((l) => l.msg === 'worker died: another takes its place')
          .map((l) => [l.worker, l.restartInMs]),
      ).toEqual([
        [first, 1000],
        [replacement, 2000],
      ]);
      const metrics = await scrape(cluster.base);
      expect(sample(metrics, 'hygie_worker_restarts_total')).toBe(2);
      expect(sample(metrics, 'hygie_workers_serving')).toBe(2);
    },
    STARTUP_MS * 2,
  );

  it(
    'answers a scrape 503 with Retry-After while a worker cannot send its metrics, and the whole again once it can',
    async () => {
      const alive = aliveWorkers(cluster);
      expect(alive).toHaveLength(2);
      const [, frozen] = alive;
      if (frozen === undefined) throw new Error('no worker');
      process.kill(frozen, 'SIGSTOP');
      try {
        // The primary hands a new connection to a worker that has taken its previous one: the
        // frozen worker holds one of these three at most, the other worker answers the rest.
        const settled: ScrapeAnswer[] = [];
        const scrapes = Array.from({ length: 3 }, () =>
          scrapeOnNewConnection(`${cluster.base}/metrics`).then((answer) => {
            settled.push(answer);
            return answer;
          }),
        );
        // Both of the other worker's answers, before the frozen one may answer a collection.
        while (settled.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
        for (const answer of settled) {
          expect(answer.status).toBe(503);
          expect(answer.retryAfter).toBe('1');
          expect(answer.body).toContain('service_unavailable');
        }
        expect(settled).toHaveLength(2);
        process.kill(frozen, 'SIGCONT');
        // The frozen worker's own scrape, answered once it runs again: the whole server.
        const answers = await Promise.all(scrapes);
        expect(answers.map((a) => a.status).sort()).toEqual([200, 503, 503]);
      } finally {
        process.kill(frozen, 'SIGCONT');
      }
      const metrics = await scrape(cluster.base);
      expect(sample(metrics, 'hygie_workers_serving')).toBe(2);
      expect(
        sample(
          metrics,
          'hygie_http_request_duration_seconds_count{method="GET",route="/metrics",status="503"}',
        ),
      ).toBe(2);
    },
    STARTUP_MS,
  );

  it(
    'answers a scrape with the other workers when one dies before sending its metrics',
    async () => {
      const alive = aliveWorkers(cluster);
      expect(alive).toHaveLength(2);
      // The worker that has served since the start: its replacement comes after 1 s.
      const [dying] = alive;
      if (dying === undefined) throw new Error('no worker');
      const before = serving(cluster.lines()).length;
      process.kill(dying, 'SIGSTOP');
      const settled: ScrapeAnswer[] = [];
      for (let i = 0; i < 3; i++) {
        // The dying worker's own connection is never answered: the primary keeps it.
        scrapeOnNewConnection(`${cluster.base}/metrics`).then(
          (answer) => settled.push(answer),
          () => undefined,
        );
      }
      // Asked for its metrics, it never answers: it is killed meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 500));
      process.kill(dying, 'SIGKILL');
      // The other worker's scrapes are answered with what is left, without waiting for the
      // collection's timeout, which would answer them 503.
      while (settled.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled.map((answer) => answer.status)).toEqual([200, 200]);
      await untilLogged(cluster, (lines) => serving(lines).length === before + 1);
    },
    STARTUP_MS,
  );

  it('stops every worker on SIGTERM, each draining, then exits 0', async () => {
    const workers = aliveWorkers(cluster);
    expect(workers).toHaveLength(2);
    cluster.primary.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
    const lines = cluster.lines();
    const drained = lines.filter((l) => l.msg === 'shutting down').map((l) => l.pid);
    expect(drained.sort()).toEqual([...workers].sort());
    expect(lines.at(-1)).toMatchObject({ msg: 'every worker stopped', exitCode: 0 });
    for (const pid of workers) expect(isAlive(pid)).toBe(false);
    await expect(fetch(`${cluster.base}/api/health`)).rejects.toThrow();
  }, 60_000);
});
