import { sql } from 'kysely';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  signIn,
  TEST_DATABASE_URL,
  TestClient,
} from '../../test/helpers.js';
import { databaseWritesDuring } from '../../test/database-writes.js';
import { advisoryLock, advisoryLockAwaited, atCommit, holdLock } from '../../test/held-locks.js';
import {
  injectInsertFault,
  removeInsertFault,
  roundTripsOf,
  shapeOf,
  verbOf,
} from '../../test/statements.js';

// docs/performance.md "Sign-in": before the hash a password sign-in reads the account and the
// trusted browser together, then the throttle's counters, and reserves its attempt; after it,
// everything it writes goes in one transaction. Counted through the statements the app sends.
const OWNER = { email: 'ecrit@hygie.test', password: 'Kerguelen-Orque-1987' };
const WRONG = 'Devinette-1';

/** The owner's client's counters read and its attempt reserved, before the hash. */
const countedOn = (dialect: string) =>
  dialect === 'postgres' ? ['with insert throttles'] : ['select throttles', 'insert throttles'];

const isWrite = (verb: string) => /^(with )?(insert|update|delete) /.test(verb);

describe.each(DIALECTS)('what a password sign-in writes, on %s', (dialect) => {
  let t: TestApp;
  let ownerId: string;
  const counted = countedOn(dialect);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ownerId = await createUser(t, { ...OWNER, phone: '+33633333333' });
  });
  afterAll(() => t.close());

  const loginFrom = (client: TestClient, ip: string, password: string) =>
    client.request({
      method: 'POST',
      url: '/api/login',
      payload: { username: OWNER.email, password },
      remoteAddress: ip,
    });

  /** A client with its anti-forgery cookie, so that the sign-in alone is recorded. */
  async function freshClient(): Promise<TestClient> {
    const client = new TestClient(t.app);
    await client.get('/api/health');
    return client;
  }

  it("the owner's client: two reads and its attempt before the hash, the settings beside it, then one transaction", async () => {
    // The address signs in once: it is one of the owner's from then on.
    expect((await loginFrom(await freshClient(), '192.0.2.10', OWNER.password)).statusCode).toBe(
      401,
    );
    const client = await freshClient();
    let status = 0;
    const recorded = await t.queries.withTurns(async () => {
      status = (await loginFrom(client, '192.0.2.10', OWNER.password)).statusCode;
    });
    expect(status).toBe(401);
    const { outside, transactions } = shapeOf(recorded.queries);
    expect(outside).toEqual([
      'select users',
      // Sent with the account's read (one write on PostgreSQL), awaited after the hash.
      'select settings',
      // The counters read and the attempt reserved before the password is checked: on
      // PostgreSQL in one statement (throttle/repository readLoginCounters).
      ...counted,
    ]);
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toEqual([
      'select users', // the account's version, held until the session is written
      'delete throttles', // the client's count cleared
      'insert throttles', // the client is the owner's for 30 days
      'insert sessions',
      'insert audit_events',
    ]);
    // On PostgreSQL its statements are pipelined (db/transaction.ts): `begin`, the account's
    // version and the four writes written from the account read before the hash, together, then
    // `commit` — two round trips, not eight.
    if (dialect === 'postgres') expect(roundTripsOf(recorded)).toEqual([2]);
    // Only the reservation, committed alone before the hash, commits without waiting for the disk
    // on PostgreSQL: the transaction that gives the verdict waits, and flushes it too.
    expect(
      recorded.queries.filter((q) => q.sql.includes('synchronous_commit')).map(verbOf),
    ).toEqual(dialect === 'postgres' ? ['with insert throttles'] : []);
  });

  it('the second factor: a code sent and checked in few round trips on PostgreSQL', async () => {
    const client = await freshClient();
    t.clock.advance(13 * 60_000); // past the last code's resend limits
    expect((await loginFrom(client, '192.0.2.10', OWNER.password)).statusCode).toBe(401);
    const send = await t.queries.withTurns(() =>
      client.post('/api/mfa/send', { provider: 'email' }),
    );
    const code = await lastCode(t, OWNER.email);
    let status = 0;
    const verify = await t.queries.withTurns(async () => {
      status = (await client.post('/api/mfa/verify', { provider: 'email', code })).statusCode;
    });
    expect(status).toBe(200);
    expect(shapeOf(send.queries).transactions).toEqual([
      [
        ...(dialect === 'postgres' ? ['select ?'] : []), // the account and purpose held
        'select one_time_codes', // the recent sends, under the lock
        'select settings',
        'update one_time_codes', // the previous code superseded
        'insert one_time_codes',
        'insert outbox',
        'insert audit_events',
      ],
    ]);
    const [stage, completion] = shapeOf(verify.queries).transactions;
    expect(stage).toEqual(['update sessions', 'update users', 'insert audit_events']);
    // The session complete, from a browser the account has not signed in from: its notice.
    expect(completion?.[0]).toBe('update sessions');
    expect(completion).toEqual(expect.arrayContaining(['insert outbox', 'insert audit_events']));
    if (dialect === 'postgres') {
      // The lock, the count and the settings with `begin`; the supersede, the insert and the
      // message together (codes/service.ts issueCode); the event; `commit`.
      expect(roundTripsOf(send)).toEqual([4]);
      // The stage's three writes with `begin`, then `commit`. Then the completion: the session
      // and the browser's lookup with `begin`; the browser remembered; the notice's link, its
      // message and the event together (links/service.ts issueLink); `commit`.
      expect(roundTripsOf(verify)).toEqual([2, 4]);
    }
  });

  it('builds none of its statements at each sign-in: each was compiled once (db/precompiled.ts)', async () => {
    /** A sign-in with a code by e-mail, from a new client: every statement its requests sent. */
    const signInWithCode = async () => {
      const client = await freshClient();
      t.clock.advance(13 * 60_000); // past the last code's resend limits
      const password = await t.queries.during(async () => {
        expect((await loginFrom(client, '192.0.2.10', OWNER.password)).statusCode).toBe(401);
      });
      const send = await t.queries.during(() =>
        client.post('/api/mfa/send', { provider: 'email' }),
      );
      const code = await lastCode(t, OWNER.email);
      const verify = await t.queries.during(async () => {
        const res = await client.post('/api/mfa/verify', { provider: 'email', code });
        expect(res.statusCode).toBe(200);
      });
      return [...password, ...send, ...verify];
    };
    const first = await signInWithCode();
    const again = await signInWithCode();
    // A statement compiled once is sent as the same compiled tree at every run; one the builder
    // made for the run is a new tree. The transactions' bounds are no statement of a module.
    const compiledOnce = new Set(first.map((query) => query.query));
    const built = again
      .filter((query) => !/^(begin|commit|rollback)\b/.test(query.sql))
      .filter((query) => !compiledOnce.has(query.query))
      .map((query) => query.sql);
    expect(again.length).toBeGreaterThan(15);
    expect(built).toEqual([]);
  });

  it('a completed sign-in in a trusted browser: stage, browser and events in the same one transaction', async () => {
    const client = new TestClient(t.app);
    expect(
      (await signIn(t, client, OWNER.email, OWNER.password, { trustDevice: true })).statusCode,
    ).toBe(200);
    let status = 0;
    const queries = await t.queries.during(async () => {
      status = (await client.login(OWNER.email, OWNER.password)).statusCode;
    });
    expect(status).toBe(200);
    const { outside, transactions } = shapeOf(queries);
    expect(outside.filter(isWrite)).toEqual([counted.at(-1)]);
    // The account, the browser and the settings read together, in either order.
    expect(new Set(outside.slice(0, 3))).toEqual(
      new Set(['select users', 'select trusted_devices', 'select settings']),
    );
    expect(outside.slice(3)).toEqual(counted);
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toEqual(
      expect.arrayContaining([
        'update trusted_devices',
        'insert sessions',
        'update sessions', // complete
        'update known_browsers',
        'delete sessions', // the session it replaces
      ]),
    );
    expect(transactions[0]?.filter((verb) => verb === 'insert audit_events')).toHaveLength(2);
  });

  it('a wrong password from a new address: the reservations in one transaction, the failure and its event in another', async () => {
    const client = await freshClient();
    let status = 0;
    const recorded = await t.queries.withTurns(async () => {
      status = (await loginFrom(client, '198.51.100.20', WRONG)).statusCode;
    });
    expect(status).toBe(401);
    const { outside, transactions } = shapeOf(recorded.queries);
    // The settings, read with the account, serve a right password only.
    // On PostgreSQL the counters' statement reserves only for the owner's clients: nothing here.
    expect(outside).toEqual(['select users', 'select settings', counted[0]]);
    expect(transactions).toEqual([
      ['insert throttles', 'insert throttles'], // the account's day and the client's own count
      ['insert throttles', 'insert throttles', 'insert audit_events'], // 30-day and address counts
    ]);
    // Each sent with its `begin`, then committed: two round trips each on PostgreSQL.
    if (dialect === 'postgres') expect(roundTripsOf(recorded)).toEqual([2, 2]);
  });

  it('a session that cannot be written: nothing of the sign-in is kept, its attempt is given back', async () => {
    const ip = '198.51.100.30';
    // Two failures from this address first: its own count, the account's and the address's.
    for (let i = 0; i < 2; i++) {
      expect((await loginFrom(await freshClient(), ip, WRONG)).statusCode).toBe(401);
    }
    const throttles = () => t.ctx.db.selectFrom('throttles').selectAll().orderBy('key').execute();
    const audit = () =>
      t.ctx.db.selectFrom('audit_events').select(['id', 'action']).orderBy('id').execute();
    const sessions = () =>
      t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', ownerId).execute();
    const before = {
      throttles: await throttles(),
      audit: await audit(),
      sessions: await sessions(),
    };
    expect(
      before.throttles.find((r) => r.key.startsWith(`login-day:user:${ownerId}`))?.failures,
    ).toBeGreaterThan(0);

    await injectInsertFault(t, 'sessions');
    try {
      const failed = await loginFrom(await freshClient(), ip, OWNER.password);
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await removeInsertFault(t, 'sessions');
    }
    expect(await throttles()).toEqual(before.throttles);
    expect(await audit()).toEqual(before.audit);
    expect(await sessions()).toEqual(before.sessions);

    // Written whole once the database takes it: the client's count cleared, the session there.
    expect((await loginFrom(await freshClient(), ip, OWNER.password)).json()).toMatchObject({
      code: 'two_factor_authentication_required',
    });
    expect(await sessions()).toHaveLength(before.sessions.length + 1);
  });

  it('parallel sign-ins of one new client all pass: their transactions lock rows in one order', async () => {
    // On PostgreSQL one's reservation (the account's count, then the client's) and another's
    // outcome (the same two rows) deadlocked when the outcome took them the other way round.
    const account = { email: 'parallele@hygie.test', password: 'Parallele-Orque-1987' };
    await createUser(t, account);
    const statuses: number[] = [];
    for (let round = 0; round < 30; round++) {
      const clients = await Promise.all(Array.from({ length: 4 }, freshClient));
      const answers = await Promise.all(
        clients.map((client) =>
          client.request({
            method: 'POST',
            url: '/api/login',
            payload: { username: account.email, password: account.password },
            remoteAddress: `203.0.113.${round + 1}`,
          }),
        ),
      );
      statuses.push(...answers.map((answer) => answer.statusCode));
      t.clock.advance(60_000);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
  });

  it('a refusal whose event cannot be written counts no failure either: its writes are one', async () => {
    const ip = '198.51.100.40';
    const counts = async () =>
      t.ctx.db
        .selectFrom('throttles')
        .select(['key', 'failures'])
        .where('key', 'in', [`login:user:${ownerId}`, `ip:${ip}`])
        .orderBy('key')
        .execute();
    expect((await loginFrom(await freshClient(), ip, WRONG)).statusCode).toBe(401);
    const before = await counts();
    expect(before.map((r) => r.failures)).toEqual([1, expect.any(Number)]);

    await injectInsertFault(t, 'audit_events');
    try {
      expect((await loginFrom(await freshClient(), ip, WRONG)).statusCode).toBeGreaterThanOrEqual(
        500,
      );
    } finally {
      await removeInsertFault(t, 'audit_events');
    }
    expect(await counts()).toEqual(before);
  });
});

// docs/performance.md "Sign-in": on PostgreSQL a new client's reservation is decided, then
// committed while its password is checked; the outcome waits for that commit.
describe.runIf(TEST_DATABASE_URL)(
  "a new client's reservation committed beside its hash, on postgres",
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('postgres');
      await createUser(t, { ...OWNER, phone: '+33633333334' });
    });
    afterAll(() => t.close());

    const loginFrom = async (ip: string, password: string) => {
      const client = new TestClient(t.app);
      await client.get('/api/health');
      return client.request({
        method: 'POST',
        url: '/api/login',
        payload: { username: OWNER.email, password },
        remoteAddress: ip,
      });
    };

    /** Runs `body` when the sign-in's reservation of the account's day count commits. */
    const atReservationCommit = (body: string) =>
      atCommit(t.ctx.db, 'throttles', `if new.key like 'login-day:%' then ${body}; end if`);

    it('checks the password while the reservation commits, and answers once it is kept', async () => {
      // The reservation's commit waits for an advisory lock another connection holds.
      const key = 730_252;
      const removeTrigger = await atReservationCommit(`perform pg_advisory_xact_lock(${key})`);
      const other = t.reopenDatabase();
      const lock = await holdLock(other.db, advisoryLock(key));
      const verify = vi.spyOn(t.ctx.passwords, 'verify');
      try {
        let answered = false;
        const signIn = loginFrom('198.51.100.90', OWNER.password).then((res) => {
          answered = true;
          return res;
        });
        await advisoryLockAwaited(other.db, key);
        // The reservation's commit is held: the password is being checked, no answer is given.
        expect(verify).toHaveBeenCalledTimes(1);
        expect(answered).toBe(false);
        await lock.release();
        expect((await signIn).json()).toMatchObject({ code: 'two_factor_authentication_required' });
      } finally {
        await lock.release();
        await other.close();
        verify.mockRestore();
        await removeTrigger();
      }
    });

    it('reads the trusted browser and the settings with the account: sent in one turn, on one connection', async () => {
      const client = new TestClient(t.app);
      expect(
        (await signIn(t, client, OWNER.email, OWNER.password, { trustDevice: true })).statusCode,
      ).toBe(200);
      // Another connection holds the accounts' table: the sign-in's read of the account waits,
      // and the two reads behind it on its connection (db/transaction.ts `together`) with it.
      const other = t.reopenDatabase();
      const lock = await holdLock(other.db, (trx) =>
        sql`lock table users in access exclusive mode`.execute(trx),
      );
      try {
        const recorded = t.queries.withTurns(() => client.login(OWNER.email, OWNER.password));
        const waiting = async () =>
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where wait_event_type = 'Lock' and query like '%from "users"%'`.execute(other.db)
          ).rows[0]?.n ?? 0;
        for (let i = 0; i < 2000 && (await waiting()) === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(await waiting()).toBe(1);
        // Nothing after them is sent while they wait: no counters' statement yet.
        expect(t.queries.recorded().map(verbOf)).toEqual([
          'select users',
          'select trusted_devices',
          'select settings',
        ]);
        await lock.release();
        const { queries, turns } = await recorded;
        expect(queries.slice(0, 3).map(verbOf)).toEqual([
          'select users',
          'select trusted_devices',
          'select settings',
        ]);
        expect(new Set(turns.slice(0, 3)).size).toBe(1);
        expect(shapeOf(queries).transactions).toHaveLength(1);
      } finally {
        await lock.release();
        await other.close();
      }
    });

    it('a reservation that cannot be committed: no answer of the password, nothing of the sign-in kept', async () => {
      const state = async () => ({
        throttles: await t.ctx.db.selectFrom('throttles').selectAll().orderBy('key').execute(),
        sessions: await t.ctx.db.selectFrom('sessions').select('id').execute(),
        audit: await t.ctx.db.selectFrom('audit_events').select('id').execute(),
      });
      const before = await state();
      const removeTrigger = await atReservationCommit(`raise exception 'refused at commit'`);
      try {
        const right = await loginFrom('198.51.100.91', OWNER.password);
        const wrong = await loginFrom('198.51.100.92', WRONG);
        for (const res of [right, wrong]) {
          expect(res.statusCode).toBeGreaterThanOrEqual(500);
          expect(res.body).not.toMatch(/two_factor|bad_credentials|refused at commit/);
        }
        expect(await state()).toEqual(before);
      } finally {
        await removeTrigger();
      }
    });
  },
);

// docs/performance.md "Sign-in": on PostgreSQL every write to a database's socket costs the event
// loop about 150 µs on these VMs; reads a request starts together go in one (db/transaction.ts
// `together`). Counted on the sockets whose far end is the database's port.
describe.runIf(TEST_DATABASE_URL)('the writes to the database of a sign-in, on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    await createUser(t, { ...OWNER, phone: '+33633333335' });
  });
  afterAll(() => t.close());

  /** The writes to the database's sockets while `run` runs, every connection of the pool open. */
  async function writesDuring(run: () => Promise<void>): Promise<number> {
    await Promise.all(
      Array.from({ length: 12 }, () => sql`select pg_sleep(0.02)`.execute(t.ctx.db)),
    );
    return databaseWritesDuring(run);
  }

  /** A client with its anti-forgery cookie, and no session yet. */
  async function freshClient(): Promise<TestClient> {
    const client = new TestClient(t.app);
    await client.get('/api/health');
    return client;
  }
  const login = (client: TestClient) =>
    client.request({
      method: 'POST',
      url: '/api/login',
      payload: { username: OWNER.email, password: OWNER.password },
      remoteAddress: '192.0.2.44',
    });

  it('the password step from the owner’s client: four, its three first reads in one', async () => {
    // The address signs in once: it is one of the owner's from then on.
    expect((await login(await freshClient())).statusCode).toBe(401);
    const client = await freshClient();
    let status = 0;
    const writes = await writesDuring(async () => {
      status = (await login(client)).statusCode;
    });
    expect(status).toBe(401);
    // The account, the browser and the settings; the counters and the reservation; the
    // transaction's statements; its `commit`.
    expect(writes).toBe(4);
  });

  it('the second factor’s check: the account, the session and the settings in one write', async () => {
    const client = await freshClient();
    t.clock.advance(13 * 60_000); // past the last code's resend limits
    expect((await login(client)).statusCode).toBe(401);
    expect((await client.post('/api/mfa/send', { provider: 'email' })).statusCode).toBe(200);
    const code = await lastCode(t, OWNER.email);
    let recorded: CompiledQuery[] = [];
    const writes = await writesDuring(async () => {
      recorded = await t.queries.during(async () => {
        expect((await client.post('/api/mfa/verify', { provider: 'email', code })).statusCode).toBe(
          200,
        );
      });
    });
    expect(shapeOf(recorded).outside.slice(-3)).toEqual([
      'select users',
      'select sessions',
      'select settings',
    ]);
    // The session's check; the code's read and its claim; the stage's transaction (two round
    // trips, roundTripsOf above); the three reads, together; the completion's transaction (four).
    expect(writes).toBe(10);
  });
});
