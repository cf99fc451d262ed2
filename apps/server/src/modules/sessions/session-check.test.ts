import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  DIALECTS,
  signIn,
  TestClient,
  testConfig,
} from '../../test/helpers.js';
import type { BuiltApp } from '../../app.js';
import { buildApp } from '../../app.js';
import type { DbHandle } from '../../db/connection.js';
import { SessionUserCache } from './repository.js';

// docs/performance.md "Session check": the session row and the user's version by primary key; the
// user's fields from a per-process cache valid for that version, which the database raises on every
// change of the row — whoever makes it, on whichever node.
describe.each(DIALECTS)('session check on %s', (dialect) => {
  let t: TestApp;
  let client: TestClient;
  let secondDb: DbHandle;
  let second: BuiltApp;
  let secondClient: TestClient;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    client = new TestClient(t.app);
    expect((await signIn(t, client)).statusCode).toBe(200);
    // A second node: its own connection (pool) to the same database, its own process cache.
    secondDb = t.reopenDatabase();
    second = await buildApp(testConfig(), { database: secondDb, clock: t.clock, logger: false });
    secondClient = new TestClient(second.app);
    for (const [name, value] of client.cookies) secondClient.cookies.set(name, value);
  });
  afterAll(async () => {
    await second.app.close();
    await t.close();
  });

  // On SQLite the checks of one turn of the event loop share one read snapshot, renewed as soon as
  // this process writes (db/connection.ts `turnSnapshot`); another process's commit is seen from the
  // next turn on. The other node's writes below are followed by the end of a turn.
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  async function adminVersion(): Promise<number> {
    const row = await t.ctx.db
      .selectFrom('users')
      .select('version')
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow();
    return row.version;
  }

  it('the database raises the version on any update of the row, even one naming no version', async () => {
    const before = await adminVersion();
    await sql`update users set updated_at = updated_at + 1 where email = ${ADMIN.email}`.execute(
      t.ctx.db,
    );
    expect(await adminVersion()).toBe(before + 1);
    await sql`update users set last_name = last_name, first_name = first_name where email = ${ADMIN.email}`.execute(
      t.ctx.db,
    );
    expect(await adminVersion()).toBe(before + 2);
  });

  it('a repeated check is one statement: the user comes from the cache', async () => {
    expect((await client.get('/api/me')).statusCode).toBe(200);
    const queries = await t.queries.during(async () => {
      expect((await client.get('/api/me')).statusCode).toBe(200);
    });
    expect(queries).toHaveLength(1);
    expect(queries[0]?.sql).toMatch(/"sessions"\."token_hash" (=|in) /);
  });

  it("a change made on another node (or by any statement) shows at this node's next check", async () => {
    expect((await client.get('/api/me')).json<{ firstName: string }>().firstName).not.toBe(
      'Renamed',
    );
    await sql`update users set first_name = 'Renamed' where email = ${ADMIN.email}`.execute(
      secondDb.db,
    );
    await nextTurn();
    const me = await client.get('/api/me');
    expect(me.json<{ firstName: string }>().firstName).toBe('Renamed');

    // Through the other node's API this time: the language, which the first node serves.
    const changed = await secondClient.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: { language: 'ar' },
    });
    expect(changed.statusCode).toBe(200);
    await nextTurn();
    expect((await client.get('/api/me')).json<{ language: string }>().language).toBe('ar');
  });

  it('a check neither waits for a transaction in progress nor sees its writes', async () => {
    const rolledBack = new Error('rolled back');
    const during = t.ctx.db.transaction().execute(async (trx) => {
      await sql`update users set first_name = 'Uncommitted' where email = ${ADMIN.email}`.execute(
        trx,
      );
      // On SQLite the process has one writing connection, held here: the check reads beside it.
      const me = await client.get('/api/me');
      expect(me.statusCode).toBe(200);
      expect(me.json<{ firstName: string | null }>().firstName).not.toBe('Uncommitted');
      throw rolledBack;
    });
    await expect(during).rejects.toBe(rolledBack);
    expect((await client.get('/api/me')).json<{ firstName: string | null }>().firstName).not.toBe(
      'Uncommitted',
    );
  });

  it("a status changed elsewhere is the one this node's next check sees", async () => {
    expect((await client.get('/api/me')).json<{ status: string }>().status).toBe('active');
    await sql`update users set status = 'locked' where email = ${ADMIN.email}`.execute(secondDb.db);
    await nextTurn();
    expect((await client.get('/api/me')).json<{ status: string }>().status).toBe('locked');
    await sql`update users set status = 'active' where email = ${ADMIN.email}`.execute(secondDb.db);
  });
});

describe('session user cache', () => {
  const user = (id: string) =>
    Object.freeze({
      id,
      email: `${id}@hygie.test`,
      email_verified_at: null,
      phone: null,
      phone_verified_at: null,
      first_name: null,
      last_name: null,
      profile: null,
      status: 'active' as const,
      roles: '[]',
      language: 'fr' as const,
      totp_enabled_at: null,
      recovery_codes_left: 0,
    });

  it('answers only for the version it holds', () => {
    const cache = new SessionUserCache(10);
    cache.set('a', 3, user('a'));
    expect(cache.get('a', 3)?.id).toBe('a');
    expect(cache.get('a', 4)).toBeUndefined();
    expect(cache.get('b', 3)).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new SessionUserCache(2);
    cache.set('a', 1, user('a'));
    cache.set('b', 1, user('b'));
    cache.get('a', 1);
    cache.set('c', 1, user('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)?.id).toBe('a');
    expect(cache.get('c', 1)?.id).toBe('c');
  });
});
