import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, TEST_DATABASE_URL } from '../../test/helpers.js';
import { holdLock } from '../../test/held-locks.js';
import { transaction } from '../../db/transaction.js';
import { verbOf } from '../../test/statements.js';
import { blockCurve, readLoginCounters } from './repository.js';
import { accountSubject, KNOWN_CLIENT_MS, signInClient, Throttle } from './service.js';

// Before a password is checked, one statement reads the sign-in's counters and tells whether the
// client is one of the owner's; on PostgreSQL the same statement reserves that client's attempt
// unless the address or the client is blocked (throttle/repository readLoginCounters): one round
// trip before the hash instead of two. What it reserves, and what it must not, on both databases.

const USER = '5b0e8c1d-2f47-4a96-b3d8-7c1e9f2a6d50';
const SUBJECT = accountSubject(USER);
const IP = '203.0.113.77';
const CLIENT = signInClient(IP, null);
const TRUSTED = signInClient(IP, 'Yq1-trusted_7');
const KEYS = {
  client: `login:${SUBJECT}:${CLIENT.key}`,
  trusted: `login:${SUBJECT}:${TRUSTED.key}`,
  known: `known:${SUBJECT}:${CLIENT.key}`,
  day: `login-day:${SUBJECT}`,
  ip: `ip:${IP}`,
};

describe.each(DIALECTS)(
  'a sign-in’s counters read, and the owner’s attempt reserved, on %s',
  (dialect) => {
    let t: TestApp;
    let throttle: Throttle;
    beforeAll(async () => {
      t = await createTestApp(dialect);
      throttle = new Throttle(t.ctx.db, t.clock);
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      await t.ctx.db.deleteFrom('throttles').execute();
    });

    const counter = async (key: string) =>
      (await t.ctx.db
        .selectFrom('throttles')
        .select(['failures', 'blocked_until'])
        .where('key', '=', key)
        .executeTakeFirst()) ?? null;
    const put = (
      key: string,
      row: { failures: number; window_start: number; blocked_until: number | null },
    ) =>
      t.ctx.db
        .insertInto('throttles')
        .values({ key, ...row })
        .execute();
    /** The client signed in `ago` ms before now: one of the owner's for 30 days. */
    const signedInAgo = (ago: number) =>
      put(KEYS.known, { failures: 0, window_start: t.clock.now() - ago, blocked_until: null });
    /** beginLogin, its reservation committed (a new client's commit may still be on its way). */
    const begin = (client = CLIENT) =>
      t.queries.during(async () => (await throttle.beginLogin(SUBJECT, client, IP)).committed);

    it('a client that signed in within 30 days: its attempt reserved in the statement that read the counters (PostgreSQL)', async () => {
      await signedInAgo(KNOWN_CLIENT_MS - 60_000);
      const sent = await begin();
      expect(await counter(KEYS.client)).toMatchObject({ failures: 1 });
      expect(await counter(KEYS.day)).toBeNull(); // nothing on the account's count
      expect(sent.map(verbOf)).toEqual(
        dialect === 'postgres'
          ? ['with insert throttles']
          : ['select throttles', 'insert throttles'],
      );
    });

    it('a trusted browser: the same, whatever its address did', async () => {
      await begin(TRUSTED);
      expect(await counter(KEYS.trusted)).toMatchObject({ failures: 1 });
      expect(await counter(KEYS.day)).toBeNull();
    });

    it('a client whose sign-in is 30 days old: not the owner’s — its attempts go on the account’s count, in one transaction', async () => {
      await signedInAgo(KNOWN_CLIENT_MS);
      await begin();
      expect(await counter(KEYS.day)).toMatchObject({ failures: 1 });
      // Reserved once, in the transaction: the first statement reserved nothing for it.
      expect(await counter(KEYS.client)).toMatchObject({ failures: 1 });
    });

    it('the owner’s client from a blocked address: refused, and nothing reserved', async () => {
      await signedInAgo(60_000);
      const now = t.clock.now();
      await put(KEYS.ip, { failures: 100, window_start: now, blocked_until: now + 60_000 });
      await expect(begin()).rejects.toMatchObject({ code: 'too_many_attempts' });
      expect(await counter(KEYS.client)).toBeNull();
    });

    it('the owner’s client while it is blocked: refused with its wait, its count unchanged', async () => {
      await signedInAgo(60_000);
      const now = t.clock.now();
      await put(KEYS.client, { failures: 6, window_start: now, blocked_until: now + 120_000 });
      await expect(begin()).rejects.toMatchObject({
        code: 'too_many_attempts',
        data: { retryAfterSeconds: 120 },
      });
      expect(await counter(KEYS.client)).toEqual({ failures: 6, blocked_until: now + 120_000 });
    });

    it('ten at once from the owner’s client with one free attempt left: one reserved, nine refused', async () => {
      await signedInAgo(60_000);
      const now = t.clock.now();
      // Four failures in a row: the fifth attempt is free, and its failure would block the client.
      await put(KEYS.client, { failures: 4, window_start: now - 600_000, blocked_until: null });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () => throttle.beginLogin(SUBJECT, CLIENT, IP)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const refused of outcomes.filter((o) => o.status === 'rejected')) {
        expect(refused.reason).toMatchObject({ code: 'too_many_attempts' });
      }
      expect(await counter(KEYS.client)).toMatchObject({ failures: 5 });
      expect(await counter(KEYS.day)).toBeNull();
    });

    it('the owner’s client past its free attempts: the attempt counted, and the wait its failure would earn set with it', async () => {
      await signedInAgo(60_000);
      const now = t.clock.now();
      await put(KEYS.client, { failures: 5, window_start: now - 600_000, blocked_until: now - 1 });
      await begin();
      const reserved = await counter(KEYS.client);
      expect(reserved?.failures).toBe(6);
      expect(reserved?.blocked_until).toBeGreaterThan(now);
    });
  },
);

// PostgreSQL: statements that read the counters before a parallel one reserved the last free
// attempt. Each decided to reserve from its own snapshot; the upsert's own condition, evaluated
// on the row as it is once its lock is free, is what refuses them.
describe.runIf(TEST_DATABASE_URL)('the owner’s attempts read together, on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
  });
  afterAll(() => t.close());

  it('four read while the client’s row is held: one reserved, three refused once it is free', async () => {
    const now = t.clock.now();
    await t.ctx.db
      .insertInto('throttles')
      .values([
        { key: KEYS.known, failures: 0, window_start: now - 60_000, blocked_until: null },
        // The fifth attempt is free, and its failure would block the client.
        { key: KEYS.client, failures: 4, window_start: now - 600_000, blocked_until: null },
      ])
      .execute();
    const other = t.reopenDatabase();
    const lock = await holdLock(other.db, (trx) =>
      trx
        .selectFrom('throttles')
        .select('key')
        .where('key', '=', KEYS.client)
        .forUpdate()
        .execute(),
    );
    const throttle = new Throttle(t.ctx.db, t.clock);
    const attempts = Promise.allSettled(
      Array.from({ length: 4 }, () => throttle.beginLogin(SUBJECT, CLIENT, IP)),
    );
    const waiting = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like '%"reserved"%'`.execute(other.db)
      ).rows[0]?.n ?? 0;
    /** How many wait for a row, once all four do or after 15 s. */
    const allWaiting = async () => {
      const until = Date.now() + 15_000;
      for (;;) {
        const n = await waiting();
        if (n >= 4 || Date.now() > until) return n;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    let waited: number;
    try {
      // All four have read the counters, and wait for the row.
      waited = await allWaiting();
    } finally {
      await lock.release();
      await other.close();
    }
    expect(waited).toBe(4);
    const outcomes = await attempts;
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const row = await t.ctx.db
      .selectFrom('throttles')
      .select('failures')
      .where('key', '=', KEYS.client)
      .executeTakeFirst();
    expect(row?.failures).toBe(5);
  });
});

// PostgreSQL: the owner's reservation commits without waiting for the disk (one WAL flush less
// before the hash); the sign-in's verdict waits for the commit after the hash, which flushes it
// (throttle/repository readLoginCounters, docs/performance.md "Sign-in").
describe.runIf(TEST_DATABASE_URL)('the owner’s reservation and the disk, on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
  });
  afterAll(() => t.close());

  it('the statement that reserves makes the transaction it runs in commit without waiting for the disk', async () => {
    const now = t.clock.now();
    await t.ctx.db
      .insertInto('throttles')
      .values({ key: KEYS.known, failures: 0, window_start: now - 60_000, blocked_until: null })
      .execute();
    const throttle = new Throttle(t.ctx.db, t.clock);
    const [sent] = await t.queries.during(async () => {
      await (
        await throttle.beginLogin(SUBJECT, CLIENT, IP)
      ).committed;
    });
    expect(sent && verbOf(sent)).toBe('with insert throttles');
    if (!sent) return;
    // Replayed in a transaction that waits for the disk: it reserves again, and turns it off.
    const other = t.reopenDatabase();
    try {
      const during = await other.db.transaction().execute(async (trx) => {
        await sql`set local synchronous_commit = on`.execute(trx);
        const before = await sql<{
          s: string;
        }>`select current_setting('synchronous_commit') as s`.execute(trx);
        const reserved = await trx.executeQuery<{ key: string; failures: number }>(sent);
        const after = await sql<{
          s: string;
        }>`select current_setting('synchronous_commit') as s`.execute(trx);
        return { before: before.rows[0]?.s, reserved: reserved.rows, after: after.rows[0]?.s };
      });
      expect(during.reserved).toContainEqual(expect.objectContaining({ failures: 2 }));
      expect(during).toMatchObject({ before: 'on', after: 'off' });
    } finally {
      await other.close();
    }
  });

  it('is refused a transaction: it would make that transaction’s commit not wait either', async () => {
    const now = t.clock.now();
    const read = (db: typeof t.ctx.db) =>
      readLoginCounters(db, {
        client: KEYS.client,
        known: KEYS.known,
        account: KEYS.day,
        ip: KEYS.ip,
        trusted: false,
        now,
        knownSince: now - KNOWN_CLIENT_MS,
        curve: blockCurve(() => 60_000),
      });
    await expect(transaction(t.ctx.db, read)).rejects.toThrow(/statement of their own/);
    await expect(t.ctx.db.transaction().execute(read)).rejects.toThrow(/statement of their own/);
    await expect(read(t.ctx.db)).resolves.toHaveProperty('rows');
  });
});
