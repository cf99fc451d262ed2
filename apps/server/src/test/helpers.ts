import fs from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { normalizePassword, XSRF_COOKIE_NAME, XSRF_HEADER_NAME } from '@hygie/domain';
import type { AppDeps, BuiltApp } from '../app.js';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { loadConfig } from '../config.js';
import type { Dialect, DbHandle, OpenOptions } from '../db/connection.js';
import { openDatabase } from '../db/connection.js';
import { TEST_DATA_KEYS } from './data-keys.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/tokens.js';
import { parseParams } from '../messaging/outbox.js';
import { QueryLog } from './query-log.js';
import { findByUsername } from '../modules/auth/service.js';
import { publishTerms } from '../modules/consent/service.js';
import { createUser as createAccount } from '../modules/users/service.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
if (process.env.REQUIRE_POSTGRES === '1' && !TEST_DATABASE_URL) {
  throw new Error(
    'REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set: the PostgreSQL run would be skipped',
  );
}

/** The dialects every server suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECTS: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const ADMIN = { email: 'admin@hygie.test', password: 'Adm1n-Passw0rd!' };

/**
 * A PostgreSQL database's default collation, when it is not the test database's (C.UTF-8, byte
 * order): glibc's French one, as a French deployment's database has it, or ICU's English one.
 */
export type TestCollation = 'fr_FR.UTF-8' | 'icu:en-US';

/**
 * Where the suites that read text by ranges run: every dialect, and PostgreSQL databases whose
 * collations order text otherwise than byte by byte (migration 0026).
 */
export const TEXT_RANGE_TARGETS: { name: string; dialect: Dialect; collation?: TestCollation }[] = [
  ...DIALECTS.map((dialect) => ({ name: dialect, dialect })),
  ...(TEST_DATABASE_URL ? (['fr_FR.UTF-8', 'icu:en-US'] as const) : []).map((collation) => ({
    name: `postgres, ${collation} collation`,
    dialect: 'postgres' as const,
    collation,
  })),
];

/**
 * The URL of a database on the test PostgreSQL server whose default collation is `collation`,
 * created by the first file that asks (each test takes a schema of its own in it).
 */
async function collatedDatabase(collation: TestCollation): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `hygie_test_${collation.replace(/[^a-zA-Z0-9]/g, '_').toLowerCase()}`;
  const locale = collation.startsWith('icu:')
    ? `locale_provider icu icu_locale '${collation.slice(4)}'`
    : `lc_collate '${collation}' lc_ctype '${collation}'`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template template0 ${locale}`);
  } catch (err) {
    // Made already (by another file, maybe at this very moment).
    const code = err instanceof pg.DatabaseError ? err.code : undefined;
    if (code !== '42P04' && code !== '23505') {
      throw new Error(
        `PostgreSQL cannot make a database with the ${collation} collation (${String(err)}): ` +
          'generate the locale (locale-gen) and restart PostgreSQL, as .ci/run does',
        { cause: err },
      );
    }
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.href;
}

/** The port a listening server is bound to. */
export function portOf(server: { address(): AddressInfo | string | null }): number {
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening on a port');
  return address.port;
}

/** A clock tests move by hand. */
export class TestClock implements Clock {
  constructor(public current = Date.now()) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestDatabase {
  handle: DbHandle;
  /** Another connection (pool) to the same database, as a second node would have. */
  reopen: () => DbHandle;
  drop: () => Promise<void>;
}

/** An isolated database: a temporary SQLite file, or a fresh schema in the test PostgreSQL. */
export async function openTestDatabase(
  dialect: Dialect,
  options: Pick<OpenOptions, 'onQuery'> & {
    /** PostgreSQL: connect through this URL (a fault-injecting proxy) instead of the test one. */
    url?: string;
    /** PostgreSQL: a shorter statement time-out than the default. */
    statementTimeoutMs?: number;
    /** PostgreSQL: in a database of this default collation instead of the test database. */
    collation?: TestCollation;
  } = {},
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-test-'));
    const file = path.join(dir, 'test.sqlite');
    const handle = openDatabase({ kind: 'sqlite', file }, options);
    return {
      handle,
      reopen: () => openDatabase({ kind: 'sqlite', file }),
      drop: () => fs.promises.rm(dir, { recursive: true, force: true }),
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomToken(9)
    .replace(/[^a-zA-Z0-9]/g, '')
    .toLowerCase()}`;
  const { collation, statementTimeoutMs, ...rest } = options;
  const server = collation ? await collatedDatabase(collation) : TEST_DATABASE_URL;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const { url = server, ...open } = rest;
  const database = {
    kind: 'postgres',
    url,
    poolMax: 5,
    ...(statementTimeoutMs ? { statementTimeoutMs } : {}),
  } as const;
  // No wait for the disk at each commit: a test app creates its schema and runs every migration,
  // a few dozen commits; this halves its start on a loaded runner.
  const handle = openDatabase(database, {
    ...open,
    searchPath: schema,
    waitForCommitOnDisk: false,
  });
  return {
    handle,
    reopen: () => openDatabase(database, { searchPath: schema, waitForCommitOnDisk: false }),
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: os.tmpdir(),
    PUBLIC_URL: 'http://localhost:3000',
    ARGON2_MEMORY_KIB: '8192',
    ARGON2_TIME_COST: '1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEB_DIST_DIR: path.join(os.tmpdir(), 'hygie-no-web-dist'),
    DATA_ENCRYPTION_KEY: TEST_DATA_KEYS.encryption,
    DATA_INDEX_KEY: TEST_DATA_KEYS.index,
    ...env,
  });
}

export interface TestApp extends BuiltApp {
  clock: TestClock;
  /** Another connection to the app's database, as a second node would have (close it yourself). */
  reopenDatabase: () => DbHandle;
  /** The statements the app runs, as sent to the database (see QueryLog). */
  queries: QueryLog;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Builds the whole app on an isolated database; close() tears both down. */
export async function createTestApp(
  dialect: Dialect,
  options: {
    env?: Record<string, string>;
    deps?: Omit<AppDeps, 'database' | 'clock'>;
    /** PostgreSQL: reach the database through this URL (a fault-injecting proxy). */
    databaseUrl?: string;
    statementTimeoutMs?: number;
    /** PostgreSQL: in a database of this default collation (TEXT_RANGE_TARGETS). */
    collation?: TestCollation;
  } = {},
): Promise<TestApp> {
  const clock = new TestClock();
  const queries = new QueryLog();
  const { handle, reopen, drop } = await openTestDatabase(dialect, {
    onQuery: (q) => queries.add(q),
    ...(options.databaseUrl ? { url: options.databaseUrl } : {}),
    ...(options.statementTimeoutMs ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
    ...(options.collation ? { collation: options.collation } : {}),
  });
  const built = await buildApp(testConfig(options.env), {
    ...options.deps,
    database: handle,
    clock,
    logger: options.deps?.logger ?? false,
  });
  return {
    ...built,
    clock,
    queries,
    dialect,
    reopenDatabase: reopen,
    close: async () => {
      await built.app.close();
      await drop();
    },
  };
}

/** A browser-like client over app.inject: keeps cookies and echoes the anti-forgery token. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: BuiltApp['app']) {}

  async request(options: InjectOptions & { xsrf?: boolean }): Promise<LightMyRequestResponse> {
    const method = (options.method ?? 'GET').toUpperCase();
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (unsafe && options.xsrf !== false && !this.cookies.has(XSRF_COOKIE_NAME)) {
      await this.request({ method: 'GET', url: '/api/health' });
    }
    const headers: OutgoingHttpHeaders = { ...options.headers };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const xsrf = this.cookies.get(XSRF_COOKIE_NAME);
    if (unsafe && options.xsrf !== false && xsrf) headers[XSRF_HEADER_NAME] = xsrf;
    const { xsrf: _ignored, ...rest } = options;
    const response = await this.app.inject({ ...rest, method, headers });
    for (const c of response.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() <= Date.now()))
        this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload?: InjectOptions['payload'], headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, payload, headers });
  }

  login(username = ADMIN.email, password = ADMIN.password) {
    return this.post('/api/login', { username, password });
  }
}

/** `count` browsers, each holding its anti-forgery cookie (one GET made), ready to sign in at once. */
export function readyClients(t: TestApp, count: number): Promise<TestClient[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = new TestClient(t.app);
      await client.get('/api/health');
      return client;
    }),
  );
}

/**
 * Lets every password step of `t` begin at once (HashPool.admit lets a few of one address's in at
 * a time per process), as several processes or nodes, each letting its own in, would: what must
 * hold then is the throttle's reservation in the database, not one process's door.
 */
export function letEveryPasswordStepIn(t: TestApp): void {
  t.ctx.passwords.admit = () => Promise.resolve({ release: () => undefined });
}

/** The code in the newest message queued for `recipient` (codes are only stored hashed elsewhere). */
export async function lastCode(t: TestApp, recipient: string): Promise<string> {
  const row = await t.ctx.db
    .selectFrom('outbox')
    .select(['params'])
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const code = parseParams(row.params).code;
  if (!code) throw new Error(`the last message to ${recipient} has no code`);
  return code;
}

/**
 * Signs in through the real stages: password, then a second factor by e-mail (code read from the
 * outbox) and the current terms when asked. The clock moves 13 minutes first so the resend limits
 * (60 s, 5 an hour) never get in the way of a test that signs in often.
 */
export async function signIn(
  t: TestApp,
  client: TestClient,
  username = ADMIN.email,
  password = ADMIN.password,
  options: { trustDevice?: boolean } = {},
): Promise<LightMyRequestResponse> {
  t.clock.advance(13 * 60_000);
  let res = await client.login(username, password);
  const user = await findByUsername(t.ctx.db, username);
  for (let step = 0; step < 6 && res.statusCode !== 200; step++) {
    const code = res.json<{ code?: string }>().code;
    if (code === 'two_factor_authentication_required' && user) {
      await client.post('/api/mfa/send', { provider: 'email' });
      res = await client.post('/api/mfa/verify', {
        provider: 'email',
        code: await lastCode(t, user.email),
        trustDevice: options.trustDevice ?? false,
      });
    } else if (code === 'cgu_not_accepted') {
      const { version, hash } = (await client.get('/api/cgu')).json<{
        version: string;
        hash: string;
      }>();
      res = await client.post('/api/cgu/accept', { version, hash });
    } else {
      break;
    }
  }
  return res;
}

export interface TestUser {
  email: string;
  password: string;
  phone?: string | null;
  phoneVerified?: boolean;
  emailVerified?: boolean;
  status?: 'active' | 'locked' | 'disabled' | 'pending_validation';
  profile?: 'patient' | 'professional' | null;
  cguVersion?: string | null;
  ins?: string | null;
  professionalId?: { type: string; value: string } | null;
  roles?: string[];
  mustCreatePassword?: boolean;
  passwordChangedAt?: number;
}

/** Inserts a user directly (for tests of flows that start from an existing account). */
export async function createUser(t: TestApp, u: TestUser): Promise<string> {
  return createAccount(t.ctx, t.ctx.db, {
    email: u.email,
    emailVerified: u.emailVerified !== false,
    phone: u.phone ?? null,
    phoneVerified: u.phoneVerified !== false,
    passwordHash: await t.ctx.passwords.hash(normalizePassword(u.password)),
    ...(u.passwordChangedAt !== undefined ? { passwordChangedAt: u.passwordChangedAt } : {}),
    mustCreatePassword: u.mustCreatePassword ?? false,
    profile: u.profile === undefined ? 'patient' : u.profile,
    status: u.status ?? 'active',
    roles: u.roles ?? [],
    firstName: 'Jeanne',
    lastName: 'Martin',
    language: 'fr',
    birthDate: '1980-05-17',
    birthPlaceInsee: '75056',
    sex: 'female',
    ins: u.ins ?? null,
    professionalId: u.professionalId ?? null,
    cguVersion: u.cguVersion === undefined ? '2026-01' : u.cguVersion,
  });
}

/** Every message queued for a recipient, newest first, with its template and parameters. */
export async function messagesTo(t: TestApp, recipient: string) {
  const rows = await t.ctx.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, params: parseParams(r.params) }));
}

/** Puts a terms version in force with a short text in every language (as `cgu:publish` does). */
export async function publishTestTerms(t: TestApp, version: string): Promise<void> {
  const text = (language: string) => [{ title: `Terms ${version}`, body: `In ${language}.` }];
  await publishTerms(
    t.ctx,
    { version, texts: { fr: text('fr'), en: text('en'), ar: text('ar') } },
    null,
  );
}
