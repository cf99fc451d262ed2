// Starts the built portal as `npm start` would in production (no dev outbox, no test clock), on a
// temporary SQLite file or a fresh PostgreSQL database, and signs its admin in through the real
// stages (the e-mailed code read back from the outbox table).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { signInAdmin } from './sign-in.mjs';

export const root = path.resolve(import.meta.dirname, '..');
export const ADMIN = { email: 'bench@hygie.test', password: 'Steady-Lamp-4821' };
/** The PostgreSQL server the bench creates its databases on (a fresh one per run, dropped after). */
export const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A port nothing listens on now, as the system gives one. A random one could be a port the
 * system had just given a client's connection (one to PostgreSQL, say): the server started on it
 * failed, and the bench waited on a port that never answered.
 */
export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitFor(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
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

/** The processes a bench started that are still running. */
const running = new Set();
// A bench that stops on an error past its `finally` (an unhandled rejection) ends its servers too:
// left running, they held the terminal's output open and the command never returned.
// Stopped by a signal, it ends them as well (Node runs no exit handler on a signal's death).
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => process.exit(128 + os.constants.signals[signal]));
}

export function startProcess(args, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

/** Whether PostgreSQL answers at POSTGRES_URL (the PostgreSQL rows are skipped, and say so, if not). */
export async function postgresAvailable() {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A new PostgreSQL database of its own on POSTGRES_URL, named from `prefix`: `{ url, drop() }`
 * (drop forces the connections left on it closed).
 */
export async function createPostgresDatabase(prefix) {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: POSTGRES_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/**
 * The built server on `kind` ('sqlite' or 'postgres'), ready: `{ base, kind, dataDir,
 * query(sql, params), stop(), pid }`. `env` adds to the server's environment.
 */
export async function startServer(kind, env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-bench-'));
  let database = {};
  let query;
  let dropDatabase = async () => {};
  if (kind === 'postgres') {
    const created = await createPostgresDatabase('hygie_bench');
    database = { DATABASE_URL: created.url };
    const pool = new pg.Pool({ connectionString: created.url, max: 2 });
    query = async (sql, params = []) => (await pool.query(sql, params)).rows;
    dropDatabase = async () => {
      await pool.end();
      await created.drop();
    };
  } else {
    query = async (sql, params = []) => {
      const db = new DatabaseSync(path.join(dataDir, 'hygie.sqlite'), { readOnly: true });
      try {
        return db.prepare(sql).all(...params);
      } finally {
        db.close();
      }
    };
  }
  const port = await freePort();
  const server = startProcess(['apps/server/dist/server.js'], {
    ...productionEnv({ port, dataDir }),
    ...database,
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(server);
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${base}/api/ready`, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, kind, dataDir, query, stop, pid: server.pid };
}

/**
 * A production server's environment for a benchmark: on `port` (0: one the system picks), its
 * data in `dataDir`, the bootstrap admin, transports that send nothing, and fresh data keys.
 */
export function productionEnv({ port, dataDir }) {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port || 3000}`,
    DATA_DIR: dataDir,
    // BENCH_LOG_LEVEL=info measures with the production default's access log.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // production mode needs real transports configured; nothing is sent (startMessageSinks gives
    // relays that accept every message).
    SMTP_URL: 'smtp://127.0.0.1:1',
    SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms',
    // Production brings its own data keys (docs/deployment.md): fresh ones for each run.
    DATA_ENCRYPTION_KEY: `1:${randomBytes(32).toString('base64')}`,
    DATA_INDEX_KEY: randomBytes(32).toString('base64'),
  };
}

/**
 * An SMTP relay and an SMS gateway that accept every message (bench/message-sinks.mjs), in a
 * process of their own: `{ env, stop() }`, `env` the server's SMTP_URL and SMS_GATEWAY_URL.
 */
export async function startMessageSinks() {
  const smtpPort = await freePort();
  const smsPort = await freePort();
  const sinks = startProcess(['bench/message-sinks.mjs'], {
    SINK_SMTP_PORT: String(smtpPort),
    SINK_SMS_PORT: String(smsPort),
  });
  try {
    await waitFor(`http://127.0.0.1:${smsPort}/`, 30_000);
  } catch (err) {
    await stopProcess(sinks);
    throw err;
  }
  return {
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SMS_GATEWAY_URL: `http://127.0.0.1:${smsPort}/sms`,
    },
    stop: () => stopProcess(sinks),
  };
}

/** The built server on `kind`, its admin signed in: startServer's answer and the `cookie` header. */
export async function startPortal(kind, env = {}) {
  const server = await startServer(kind, env);
  try {
    const codeFor = async (recipient) => {
      const rows = await server.query(
        kind === 'postgres'
          ? "select params from outbox where template = 'mfa_code' and recipient = $1 order by created_at desc limit 1"
          : "select params from outbox where template = 'mfa_code' and recipient = ? order by created_at desc limit 1",
        [recipient],
      );
      if (!rows[0]) throw new Error(`no second-factor code for ${recipient} in the outbox`);
      return JSON.parse(rows[0].params).code;
    };
    const cookie = await signInAdmin(server.base, codeFor, ADMIN);
    return { ...server, cookie };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/**
 * The sign-up of bench patient `index` (`POST /api/register`'s body): `email` with `password`,
 * accepting `terms` (`GET /api/cgu`'s answer), a mobile number of its own.
 */
export function patientSignUp({ email, password, terms, index }) {
  return {
    type: 'patient',
    email,
    password,
    passwordConfirmation: password,
    acceptCgu: true,
    cguVersion: terms.version,
    cguHash: terms.hash,
    firstName: 'Camille',
    lastName: 'Lefebvre',
    birthDate: '02/03/1985',
    birthPlaceInsee: '69123',
    sex: 'female',
    phone: `+336120000${String(index).padStart(2, '0')}`,
  };
}

/** Writes a benchmark's report to bench/results/<name>-<date>.json and says where. */
export function writeReport(name, report) {
  const file = path.join(
    import.meta.dirname,
    'results',
    `${name}-${report.date.replace(/[:.]/g, '-')}.json`,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
}
