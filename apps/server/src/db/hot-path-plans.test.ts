import type { CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { purgeExpired } from '../modules/maintenance/service.js';
import { findUserByEmail } from '../modules/users/service.js';
import type { ListeningApp } from '../modules/oidc/test-support.js';
import {
  authorizationRequest,
  authorizeTo,
  Browser,
  listeningTestApp,
  registerPlatform,
  relyingParty,
} from '../modules/oidc/test-support.js';
import { createUser, DIALECTS, lastCode, signIn, TestClient } from '../test/helpers.js';
import type { Dialect } from './connection.js';
import { KEPT_MARK } from './connection.js';
import { explain } from '../test/query-log.js';
import { isCompiledOnce } from './precompiled.js';

// Performance issue: no statement on a hot path grows with its table. The journeys below are the
// ones every user, platform and attacker repeats — each way of signing in and its refusals, the
// second factor by e-mail and SMS, the trusted browser, the session check and the signed-in
// landing, an OpenID Connect authorization, token, userinfo and refresh, the sign-out, the
// public forms (sign-up, forgotten password, "not you?"), and the queue's worker sending the
// messages they wrote — run through the app as a client would.
// Every statement they send, as sent (with its parameters), is explained: each must reach its
// rows through an index, on both databases. A query that scans a table passes every functional
// test at a hundred users and takes the portal down at a million; this is where it is caught.

const PATIENT = {
  email: 'patient@hygie.test',
  password: 'Patient-Passw0rd!',
  phone: '+33612345678',
  ins: '295109912611193',
  newPassword: 'Brisk-Lantern-58',
};
const PROFESSIONAL = {
  email: 'pro@hygie.test',
  password: 'Pro-Passw0rd!42',
  phone: '+33612345679',
  profile: 'professional' as const,
  professionalId: { type: 'RPPS', value: '10002909371' },
};
const LOCKED = {
  email: 'locked@hygie.test',
  password: 'Locked-Passw0rd!',
  status: 'locked' as const,
};
const CALLBACK = 'http://127.0.0.1:9/alpha/callback';
const METRICS_TOKEN = 'metrics-token-of-the-hot-path-plans';
/** The journey of the operator's trail filtered by a type. */
const FILTERED_LISTS = "the operator's trail by type";
/**
 * Tables read whole by design: configuration an admin writes, whose size follows neither the
 * users nor the traffic. The platforms are the relying parties registered (tens at most): the
 * signed-in landing lists every one the user may reach.
 */
const CONFIGURATION_TABLES = new Set(['platforms']);
/** The journey of a password sign-in from a trusted browser: no second factor, a session. */
const TRUSTED_SIGN_IN = 'sign-in from a trusted browser';
/** The journeys every user repeats, whose statements are kept prepared on PostgreSQL. */
const KEPT_JOURNEYS = new Set([
  'sign-in, code by e-mail',
  'session check and landing',
  'OpenID Connect',
  'sign-out',
  TRUSTED_SIGN_IN,
  'sign-in by phone, code by SMS',
]);

/** A recorded parameter as an SQL literal, for `execute` of a statement prepared in SQL. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `array[${value.map(literal).join(', ')}]`;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Whole-table reads found and not fixed yet, each with why. The test fails when one of them stops
 * reading its table whole, so that it leaves this list with its fix.
 */
const KNOWN_WHOLE_TABLE_READS: { statement: RegExp; why: string }[] = [
  {
    statement: /from "outbox" where "channel" in .* and "status" = .* group by "channel"$/,
    why:
      'the metrics scrape counts the messages waiting and those failed: every one of them, the ' +
      'backlog and the failures of the 30 days kept (docs/performance.md); a count kept beside ' +
      'the queue would cost every message a second write',
  },
];

/** Columns whose index range holds one person's rows: a sort of them is bounded by that person. */
const OWNER_COLUMNS = new Set(['user_id', 'target_id', 'phone']);

/**
 * Columns whose every value is shared by a large part of their table (a status, a channel, a
 * stage): an index range on them alone, read to its end, reads that part.
 */
const SHARED_COLUMNS = new Set([
  'status',
  'channel',
  'stage',
  'type',
  'kind',
  'profile',
  'template',
]);

/** The columns an index condition constrains: SQLite's `(a=? AND b>?)`, PostgreSQL's `Index Cond`. */
function conditionColumns(condition: string): string[] {
  return [
    ...condition.matchAll(/\(*(\w+)\)?(?:::\w+(?: \w+)?)?\s*(?:=|<|>|<=|>=| IN\b| = ANY)/g),
  ].map((m) => m[1] ?? '');
}

/**
 * The tables a plan reads whole (or through a whole index): SQLite's `SCAN t`; PostgreSQL's `Seq
 * Scan on t`, and an index scan with no `Index Cond` (with sequential scans switched off for the
 * explain, the planner walks a whole index rather than say it has none that fits). But a first
 * page in an index's order — the walk stopped by a `LIMIT`, no row filtered out on the way and
 * nothing sorted — reads its page, not the table. And a page sorted after it is read (`LIMIT`
 * over a sort) reads every row of its index range: one person's rows, or the table's when the
 * range is on a column most rows share (a channel, a status).
 */
function scannedTables(
  plan: string,
  dialect: Dialect,
  statement: string,
  walk: 'ordered' | 'filtered' = 'ordered',
): string[] {
  const lines = plan.split('\n');
  const paged = /\blimit\b/i.test(statement) || /^Limit\b/.test(plan);
  const sorted = /TEMP B-TREE FOR (?:LAST TERM OF )?ORDER BY|\bSort\b/.test(plan);
  if (dialect === 'sqlite') {
    const pageInIndexOrder =
      paged && (walk === 'filtered' || !/\bwhere\b/i.test(statement)) && !sorted;
    return lines.flatMap((line) => {
      const scan = /\bSCAN (\w+)( USING (?:COVERING )?INDEX)?/.exec(line);
      if (scan?.[1] && scan[1] !== 'CONSTANT') return scan[2] && pageInIndexOrder ? [] : [scan[1]];
      const search = /\bSEARCH (\w+) USING (?:COVERING )?INDEX \w+ \((\w+)/.exec(line);
      if (search?.[1] && paged && sorted && !OWNER_COLUMNS.has(search[2] ?? '')) return [search[1]];
      const range = /\bSEARCH (\w+) USING (?:COVERING )?INDEX \w+ \((.*)\)$/.exec(line);
      const columns = conditionColumns(range?.[2] ?? '');
      if (range?.[1] && !paged && columns.length > 0 && columns.every((c) => SHARED_COLUMNS.has(c)))
        return [range[1]];
      return [];
    });
  }
  return lines.flatMap((line, i) => {
    const seq = /Seq Scan on (\w+)/.exec(line);
    if (seq?.[1]) return [seq[1]];
    const details: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.includes('->')) break;
      details.push(next);
    }
    const condition = details.find((d) => d.includes('Index Cond:'));
    const shared = (c: string | undefined) => {
      const columns = conditionColumns(c ?? '');
      return !paged && columns.length > 0 && columns.every((column) => SHARED_COLUMNS.has(column));
    };
    // A bitmap's index range, its table named by the heap scan above it.
    if (/Bitmap Index Scan on \w+/.test(line)) {
      const heap = lines
        .slice(0, i)
        .reverse()
        .map((l) => /Bitmap Heap Scan on (\w+)/.exec(l)?.[1])
        .find((table) => table !== undefined);
      return heap && shared(condition) ? [heap] : [];
    }
    const index = /Index (?:Only )?Scan(?: Backward)? using \w+ on (\w+)/.exec(line);
    if (!index?.[1]) return [];
    if (condition) {
      const column = /Index Cond: \(+(\w+)/.exec(condition)?.[1] ?? '';
      if (shared(condition)) return [index[1]];
      return paged && sorted && !OWNER_COLUMNS.has(column) ? [index[1]] : [];
    }
    const filtered = details.some((d) => d.includes('Filter:'));
    return paged && !sorted && (walk === 'filtered' || !filtered) ? [] : [index[1]];
  });
}

describe('scannedTables', () => {
  const bySqlite = (plan: string, statement = 'select * from t where a = ?') =>
    scannedTables(plan, 'sqlite', statement);
  const byPostgres = (plan: string[]) => scannedTables(plan.join('\n'), 'postgres', '');

  it('names the tables a plan reads whole, and none that it reaches by an index', () => {
    expect(bySqlite('SEARCH users USING INDEX users_email_uq (email=?)')).toEqual([]);
    expect(bySqlite('SCAN outbox\nUSE TEMP B-TREE FOR ORDER BY')).toEqual(['outbox']);
    expect(bySqlite('SCAN users USING COVERING INDEX users_created_idx')).toEqual(['users']);
    expect(bySqlite('SCAN CONSTANT ROW')).toEqual([]);
    expect(
      byPostgres([
        'Index Scan using users_pkey on users  (cost=0.15..8.17 rows=1)',
        '  Index Cond: (id = $1)',
      ]),
    ).toEqual([]);
    expect(
      byPostgres([
        'Limit',
        '  ->  Seq Scan on outbox  (cost=1.00..10.88 rows=1)',
        '        Filter: (recipient = $1)',
      ]),
    ).toEqual(['outbox']);
    expect(
      byPostgres([
        'Limit',
        '  ->  Index Scan Backward using outbox_created_idx on outbox  (cost=0.15..60.2)',
        '        Filter: (recipient = $1)',
        '  ->  Index Only Scan using users_pkey on users  (cost=0.15..8.17 rows=1)',
        '        Index Cond: (id = $2)',
      ]),
    ).toEqual(['outbox']);
  });

  it('takes a first page in an index’s order for its page, unless a row is filtered or sorted', () => {
    const list = 'select * from users order by created_at desc, id desc limit ?';
    expect(bySqlite('SCAN users USING INDEX users_created_idx', list)).toEqual([]);
    expect(bySqlite('SCAN users', list)).toEqual(['users']);
    expect(
      bySqlite(
        'SCAN users USING INDEX users_created_idx\nUSE TEMP B-TREE FOR LAST TERM OF ORDER BY',
        list,
      ),
    ).toEqual(['users']);
    expect(
      bySqlite(
        'SCAN users USING INDEX users_created_idx',
        'select * from users where status = ? order by created_at desc limit ?',
      ),
    ).toEqual(['users']);
    const walk = '  ->  Index Scan Backward using users_created_idx on users  (cost=0.14..36.28)';
    expect(byPostgres(['Limit  (cost=0.14..36.28 rows=10)', walk])).toEqual([]);
    expect(byPostgres(['Limit', walk, '        Filter: (status = $1)'])).toEqual(['users']);
    expect(byPostgres(['Limit', '  ->  Sort', '        Sort Key: at DESC, id DESC', walk])).toEqual(
      ['users'],
    );
    expect(byPostgres([walk.replace('  ->  ', '')])).toEqual(['users']);
  });

  it('takes an index range on columns most rows share, read to its end, for most of its table', () => {
    const all = 'select * from outbox where channel in (?, ?) and recipient in (?, ?)';
    expect(bySqlite('SEARCH outbox USING INDEX outbox_channel_due_idx (channel=?)', all)).toEqual([
      'outbox',
    ]);
    expect(
      bySqlite('SEARCH outbox USING INDEX outbox_channel_due_idx (channel=? AND status=?)', all),
    ).toEqual(['outbox']);
    // Another column in the range bounds it; a page stops it.
    expect(
      bySqlite('SEARCH outbox USING INDEX outbox_recipient_idx (recipient=? AND channel=?)', all),
    ).toEqual([]);
    expect(
      bySqlite(
        'SEARCH outbox USING INDEX outbox_status_created_idx (status=? AND created_at<?)',
        all,
      ),
    ).toEqual([]);
    expect(
      bySqlite(
        'SEARCH users USING INDEX users_status_created_idx (status=?)',
        'select * from users where status = ? order by created_at desc limit ?',
      ),
    ).toEqual([]);
    expect(
      byPostgres([
        'Bitmap Heap Scan on outbox  (cost=4.2..13.7 rows=4)',
        "  Recheck Cond: ((channel)::text = ANY ('{email,sms}'::text[]))",
        '  ->  Bitmap Index Scan on outbox_channel_created_idx  (cost=0.00..4.2 rows=4)',
        "        Index Cond: ((channel)::text = ANY ('{email,sms}'::text[]))",
      ]),
    ).toEqual(['outbox']);
    expect(
      byPostgres([
        'Index Scan using outbox_channel_due_idx on outbox  (cost=0.15..8.17 rows=1)',
        "  Index Cond: (((channel)::text = 'sms'::text) AND ((status)::text = 'failed'::text))",
      ]),
    ).toEqual(['outbox']);
    expect(
      byPostgres([
        'Index Scan using outbox_recipient_idx on outbox  (cost=0.15..8.17 rows=1)',
        '  Index Cond: (((recipient)::text = ANY ($1)) AND ((channel)::text = ANY ($2)))',
      ]),
    ).toEqual([]);
  });

  it('takes a page sorted after it is read for the index range it sorts: one person’s, or most of a table', () => {
    const page = 'select * from outbox where channel = ? order by created_at desc limit ?';
    const sort = 'USE TEMP B-TREE FOR ORDER BY';
    expect(
      bySqlite(`SEARCH outbox USING INDEX outbox_channel_idx (channel=?)\n${sort}`, page),
    ).toEqual(['outbox']);
    expect(
      bySqlite(`SEARCH sessions USING INDEX sessions_user_idx (user_id=?)\n${sort}`, page),
    ).toEqual([]);
    expect(bySqlite('SEARCH outbox USING INDEX outbox_channel_idx (channel=?)', page)).toEqual([]);
    const sortedRange = (condition: string) => [
      'Limit',
      '  ->  Sort',
      '        Sort Key: created_at DESC, id DESC',
      '        ->  Index Scan using some_idx on outbox  (cost=0.14..8.16 rows=1)',
      `              Index Cond: ${condition}`,
    ];
    expect(byPostgres(sortedRange("((channel)::text = 'sms'::text)"))).toEqual(['outbox']);
    expect(byPostgres(sortedRange("((user_id)::text = 'x'::text)"))).toEqual([]);
    expect(
      byPostgres(sortedRange("((channel)::text = 'sms'::text)").filter((l) => !/Sort/.test(l))),
    ).toEqual([]);
  });
});

describe.each(DIALECTS)('the hot paths’ statements on %s', (dialect) => {
  let t: ListeningApp;
  /** Each statement the journeys sent, with the journey that sent it. */
  const sent: { journey: string; query: CompiledQuery }[] = [];

  /** Runs a journey's step, keeping every statement it sends under the journey's name. */
  async function recorded<T>(journey: string, step: () => Promise<T>): Promise<T> {
    let result: T | undefined;
    const queries = await t.queries.during(async () => {
      result = await step();
    });
    sent.push(...queries.map((query) => ({ journey, query })));
    if (result === undefined) throw new Error(`${journey}: no answer`);
    return result;
  }

  function codeOf(res: LightMyRequestResponse): string | undefined {
    return res.json<{ code?: string }>().code;
  }

  /** A password sign-in through its second factor (code read outside the journey's statements). */
  async function signInWithCode(
    journey: string,
    browser: TestClient,
    username: string,
    password: string,
    provider: 'email' | 'sms',
    recipient: string,
  ): Promise<void> {
    t.clock.advance(13 * 60_000);
    const first = await recorded(journey, () => browser.login(username, password));
    expect(codeOf(first), journey).toBe('two_factor_authentication_required');
    const send = await recorded(journey, () => browser.post('/api/mfa/send', { provider }));
    expect(send.statusCode, journey).toBe(200);
    const code = await lastCode(t, recipient);
    const verified = await recorded(journey, () =>
      browser.post('/api/mfa/verify', { provider, code, trustDevice: true }),
    );
    expect(verified.statusCode, `${journey}: ${verified.body}`).toBe(200);
  }

  /** A browser of the patient's, signed in with a code by e-mail. */
  async function signedInPatient(): Promise<TestClient> {
    const browser = new TestClient(t.app);
    const { email, password } = PATIENT;
    await signInWithCode('sign-in, code by e-mail', browser, email, password, 'email', email);
    return browser;
  }

  beforeAll(async () => {
    t = await listeningTestApp(dialect, { METRICS_TOKEN });
    const admin = new TestClient(t.app);
    expect((await signIn(t, admin)).statusCode).toBe(200);
    const platform = await registerPlatform(admin, { name: 'Alpha', redirectUris: [CALLBACK] });
    const rp = await relyingParty(t.base, platform);
    await createUser(t, PATIENT);
    await createUser(t, PROFESSIONAL);
    await createUser(t, LOCKED);

    const patient = await signedInPatient();
    for (const url of ['/api/me', '/api/me', '/api/dashboard', '/api/services', '/api/config']) {
      const res = await recorded('session check and landing', () => patient.get(url));
      expect(res.statusCode, url).toBe(200);
    }
    await recorded('OpenID Connect', async () => {
      const start = await authorizationRequest(rp, CALLBACK);
      const callback = await authorizeTo(new Browser(patient.cookies), t.base, start);
      const tokens = await client.authorizationCodeGrant(rp, callback, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      });
      const info = await client.fetchUserInfo(rp, tokens.access_token, client.skipSubjectCheck);
      expect(info.email).toBe(PATIENT.email);
      const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token ?? '');
      expect(refreshed.access_token).toBeTruthy();
      return refreshed;
    });
    const out = await recorded('sign-out', () => patient.get('/api/logout'));
    expect(out.statusCode).toBe(303);
    t.clock.advance(13 * 60_000);
    const trusted = await recorded(TRUSTED_SIGN_IN, () =>
      patient.login(PATIENT.email, PATIENT.password),
    );
    expect(trusted.statusCode, trusted.body).toBe(200);

    await signInWithCode(
      'sign-in by phone, code by SMS',
      new TestClient(t.app),
      PATIENT.phone,
      PATIENT.password,
      'sms',
      PATIENT.phone,
    );
    for (const [journey, username, password] of [
      ['sign-in by INS', PATIENT.ins, PATIENT.password],
      ['sign-in by RPPS', PROFESSIONAL.professionalId.value, PROFESSIONAL.password],
    ] as const) {
      const res = await recorded(journey, () => new TestClient(t.app).login(username, password));
      expect(codeOf(res), journey).toBe('two_factor_authentication_required');
    }
    for (const [journey, username, password, code] of [
      ['a wrong password', PATIENT.email, 'Wrong-Passw0rd!!', 'bad_credentials'],
      ['an unknown account', 'nobody@hygie.test', 'Wrong-Passw0rd!!', 'bad_credentials'],
      ['a locked account', LOCKED.email, LOCKED.password, 'account_locked'],
    ] as const) {
      const res = await recorded(journey, () => new TestClient(t.app).login(username, password));
      expect(codeOf(res), journey).toBe(code);
    }

    const stranger = new TestClient(t.app);
    const forgot = await recorded('forgotten password', () =>
      stranger.post('/api/password/forgot', { username: PATIENT.email, channel: 'email' }),
    );
    expect(forgot.statusCode).toBe(200);
    const wrongCode = await recorded('forgotten password', () =>
      stranger.post('/api/password/forgot/verify', {
        username: PATIENT.email,
        channel: 'email',
        code: '000000',
      }),
    );
    expect(wrongCode.statusCode).toBe(400);
    const lock = await recorded('"not you?"', () =>
      stranger.post('/api/lock-account', { email: PATIENT.email, code: 'x'.repeat(43) }),
    );
    expect(lock.statusCode).toBeGreaterThanOrEqual(400);
    expect(lock.statusCode).toBeLessThan(500);
    const terms = (await stranger.get('/api/cgu')).json<{ version: string; hash: string }>();
    const registered = await recorded('sign-up', () =>
      stranger.post('/api/register', {
        type: 'professional',
        email: 'new@hygie.test',
        password: 'Sunny-Garden-42',
        passwordConfirmation: 'Sunny-Garden-42',
        acceptCgu: true,
        cguVersion: terms.version,
        cguHash: terms.hash,
        firstName: 'Léa',
        lastName: 'Bernard',
        birthDate: '17/05/1980',
        birthPlaceInsee: '75056',
        sex: 'female',
        phone: '06 12 34 56 70',
        identifier: { type: 'RPPS', value: '10101215225' },
        job: 'Infirmière',
      }),
    );
    expect(registered.statusCode, registered.body).toBe(201);

    // The signed-in pages a person opens, and the operator's screens over the largest tables.
    const person = await signedInPatient();
    for (const url of [
      '/api/me/sessions',
      '/api/me/activity',
      '/api/devices',
      '/api/me/consents',
      '/api/me/assurance',
      '/api/me/identity-links',
      '/api/profile',
    ]) {
      const res = await recorded('signed-in pages', () => person.get(url));
      expect(res.statusCode, url).toBe(200);
    }
    expect((await signIn(t, admin)).statusCode).toBe(200);
    const patientId = (await findUserByEmail(t.ctx.db, PATIENT.email))?.id ?? '';
    const professionalId = (await findUserByEmail(t.ctx.db, PROFESSIONAL.email))?.id ?? '';
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    // The trail filtered by a type walks its time order and skips the other types: checked as a
    // walk, not a range (below).
    const filtered = new Set(['/api/admin/audit?type=login_failed']);
    for (const url of [
      '/api/admin/users',
      `/api/admin/users/${patientId}`,
      '/api/admin/audit',
      `/api/admin/audit?user=${patientId}`,
      `/api/admin/audit?from=${today}&to=${today}`,
      '/api/admin/messages?limit=4',
      '/api/admin/messages?channel=sms',
      '/api/admin/messages?status=failed',
      '/api/admin/messages?status=failed&channel=sms',
      ...filtered,
      '/api/admin/settings',
      '/api/admin/platforms',
    ]) {
      const journey = filtered.has(url) ? FILTERED_LISTS : "the operator's screens";
      const res = await recorded(journey, () => admin.get(url));
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const cursor = res.json<{ nextCursor?: string | null }>().nextCursor;
      if (cursor) {
        const next = `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
        const page = await recorded(journey, () => admin.get(next));
        expect(page.statusCode, next).toBe(200);
      }
    }
    // The account's changes: by its owner, then by an admin (each ends sessions, tells the
    // platforms and the person, and leaves its event).
    const changes: [TestClient, string, object][] = [
      [person, '/api/me/sessions/end-others', {}],
      [
        person,
        '/api/profile/password',
        {
          currentPassword: PATIENT.password,
          password: PATIENT.newPassword,
          passwordConfirmation: PATIENT.newPassword,
        },
      ],
      ...['lock', 'unlock', 'end-sessions', 'send-password-reset'].map(
        (action): [TestClient, string, object] => [
          admin,
          `/api/admin/users/${professionalId}/${action}`,
          {},
        ],
      ),
    ];
    for (const [client, url, payload] of changes) {
      const res = await recorded("the account's changes", () => client.post(url, payload));
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }

    // The person's own data, as the law lets them ask: the export, then the erasure.
    const exported = await recorded('the data export', () => person.get('/api/me/export'));
    expect(exported.statusCode).toBe(200);
    const erased = await recorded('the erasure', () =>
      person.request({
        method: 'DELETE',
        url: '/api/me',
        payload: { password: PATIENT.newPassword },
      }),
    );
    expect(erased.statusCode, erased.body).toBe(200);

    // The queue's worker: the due messages of each channel claimed, sent and settled one by one.
    const dispatched = await recorded('the message dispatch', () => t.dispatcher.runOnce());
    expect(dispatched).toBeGreaterThan(0);

    const scrape = await recorded('the metrics scrape', () =>
      stranger.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` }),
    );
    expect(scrape.statusCode).toBe(200);
    await recorded('the hourly purge', () => purgeExpired(t.ctx));
  }, 120_000);
  afterAll(() => t.close());

  it('reach the tables of every hot path', () => {
    const tables = new Set(
      sent.flatMap(({ query }) =>
        [...query.sql.matchAll(/(?:from|into|update|join) "(\w+)"/g)].map((m) => m[1]),
      ),
    );
    for (const table of [
      'users',
      'sessions',
      'throttles',
      'one_time_codes',
      'trusted_devices',
      'outbox',
      'audit_events',
      'oidc_store',
      'platforms',
    ]) {
      expect(tables, table).toContain(table);
    }
    expect(new Set(sent.map((s) => s.query.sql)).size).toBeGreaterThan(70);
  });

  // docs/performance.md "Sign-in": the statements of the journeys every user repeats are kept
  // prepared on PostgreSQL (`kept`, db/connection.ts), parsed and planned once per connection —
  // all but the transactions' bounds, statements of no table, and the pages and lists (`order
  // by`: their best plan depends on the values).
  it('keep the statements of the journeys every user repeats prepared', () => {
    const repeated = sent.filter(({ journey }) => KEPT_JOURNEYS.has(journey));
    expect(new Set(repeated.map((s) => s.journey))).toEqual(KEPT_JOURNEYS);
    const unkept = new Set(
      repeated
        .map(({ query }) => query.sql)
        .filter((text) => !/^(begin|commit|rollback)\b/.test(text))
        .filter((text) => /\b(from|into|update) "/.test(text))
        .filter((text) => !/ order by /.test(text))
        .filter((text) => !text.endsWith(KEPT_MARK)),
    );
    expect([...unkept]).toEqual([]);
  });

  // docs/performance.md "Sign-in": a kept statement is one of fixed text, so it is compiled once
  // too (`precompiled`): each run sends the tree compiled at its first, rather than one the
  // builder made for the run.
  it('compile the kept statements of those journeys once', () => {
    const kept = sent
      .filter(({ journey }) => KEPT_JOURNEYS.has(journey))
      .map(({ query }) => query)
      .filter((query) => query.sql.endsWith(KEPT_MARK));
    expect(kept.length).toBeGreaterThan(40);
    const built = new Set(kept.filter((query) => !isCompiledOnce(query)).map((q) => q.sql));
    expect([...built]).toEqual([]);
  });

  // A kept statement's plan is made once for any parameters (after five runs, when PostgreSQL
  // finds it no costlier than those made for each run's values): that plan must read through an
  // index as the one explained for the values at hand does.
  if (dialect === 'postgres')
    it('keep the plan of each kept statement, one that reads through an index for any parameters', async () => {
      const texts = new Map<string, CompiledQuery>();
      for (const { query } of sent) if (query.sql.endsWith(KEPT_MARK)) texts.set(query.sql, query);
      expect(texts.size).toBeGreaterThan(40);
      const offenders: string[] = [];
      await t.ctx.db.connection().execute(async (conn) => {
        const prepare = (text: string) => sql.raw(`prepare hot_kept as ${text}`).execute(conn);
        const deallocate = () => sql`deallocate hot_kept`.execute(conn);
        for (const [text, query] of texts) {
          const args = query.parameters.map(literal).join(', ');
          // Six runs, each rolled back (a write's row stays as it was): PostgreSQL's choice is
          // made. A recorded write may no longer apply (its user since deleted): the run fails
          // after its plan is chosen, which is what is counted.
          await prepare(text);
          try {
            for (let i = 0; i < 6; i++) {
              await sql`begin`.execute(conn);
              await sql
                .raw(`execute hot_kept(${args})`)
                .execute(conn)
                .catch(() => undefined);
              await sql`rollback`.execute(conn);
            }
            const { rows } = await sql<{ generic_plans: number }>`
              select generic_plans from pg_prepared_statements where name = 'hot_kept'`.execute(
              conn,
            );
            if (!rows[0] || rows[0].generic_plans < 1)
              offenders.push(`planned at every run: ${text}`);
          } finally {
            await deallocate();
          }
          // The plan kept for any parameters, explained as `explain` does (the test's tables are
          // small, where a scan is the cheaper plan).
          await sql`set enable_seqscan = off`.execute(conn);
          await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
          await prepare(text);
          try {
            const plan = await sql
              .raw<{ 'QUERY PLAN': string }>(`explain execute hot_kept(${args})`)
              .execute(conn);
            const scanned = scannedTables(
              plan.rows.map((r) => r['QUERY PLAN']).join('\n'),
              dialect,
              text,
              'ordered',
            ).filter((table) => !CONFIGURATION_TABLES.has(table));
            if (scanned.length > 0)
              offenders.push(`kept plan reads ${scanned.join(', ')}: ${text}`);
          } finally {
            await deallocate();
            await sql`reset plan_cache_mode`.execute(conn);
            await sql`reset enable_seqscan`.execute(conn);
          }
        }
      });
      expect(offenders).toEqual([]);
    });

  it('read every table through an index: no statement grows with its table', async () => {
    const explained = new Map<string, string[]>();
    const offenders: string[] = [];
    const stillKnown = new Set<string>();
    for (const { journey, query } of sent) {
      if (!/^\s*(select|insert|update|delete|with)\b/i.test(query.sql)) continue;
      let scanned = explained.get(query.sql);
      if (!scanned) {
        const plan = await explain(t.ctx.db, dialect, query);
        scanned = scannedTables(
          plan,
          dialect,
          query.sql,
          journey === FILTERED_LISTS ? 'filtered' : 'ordered',
        ).filter((table) => !CONFIGURATION_TABLES.has(table));
        explained.set(query.sql, scanned);
        const known = KNOWN_WHOLE_TABLE_READS.find((k) => k.statement.test(query.sql));
        if (scanned.length > 0 && known) stillKnown.add(known.why);
        else if (scanned.length > 0) {
          offenders.push(`${journey}: ${scanned.join(', ')} ← ${query.sql}`);
        }
      }
    }
    expect(explained.size).toBeGreaterThan(70);
    expect(offenders).toEqual([]);
    // A known read that no longer reads its table whole leaves the list with its fix.
    expect([...stillKnown]).toEqual(KNOWN_WHOLE_TABLE_READS.map((k) => k.why));
  });
});
