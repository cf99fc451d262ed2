import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, DbHandle } from '../../db/connection.js';
import { openDatabase } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { randomToken } from '../../lib/tokens.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, TEST_DATABASE_URL, TestClock } from '../../test/helpers.js';
import { Throttle } from './service.js';

// An admin's unlock and a new password clear the account's sign-in counters, every client's: the
// per-client ones as one range of the key's index (throttle/repository.ts, migration 0026).

const OWNER = '0c4f2a9e-7d1b-4e38-9a65-3b2f8d1c7e40';
const OTHER = '0c4f2a9e-7d1b-4e38-9a65-3b2f8d1c7e41';

const COUNTERS = {
  cleared: [
    `login:user:${OWNER}`,
    `login-day:user:${OWNER}`,
    `login:user:${OWNER}:ip:5d41402abc4b2a76b9719d91`,
    `login:user:${OWNER}:ip:none`,
    `login:user:${OWNER}:device:Zq3-x_9`,
  ],
  kept: [
    // Since when a client is the owner's: it stays the owner's.
    `known:user:${OWNER}:ip:5d41402abc4b2a76b9719d91`,
    `current-password:user:${OWNER}`,
    `login:user:${OTHER}`,
    `login:user:${OTHER}:ip:5d41402abc4b2a76b9719d91`,
    `login-day:user:${OTHER}`,
    'ip:203.0.113.9',
  ],
};

async function seedAndReset(db: Db, clock: TestClock): Promise<string[]> {
  await db.deleteFrom('throttles').execute();
  await db
    .insertInto('throttles')
    .values(
      [...COUNTERS.cleared, ...COUNTERS.kept].map((key) => ({
        key,
        failures: 3,
        window_start: clock.now(),
        blocked_until: clock.now() + 60_000,
      })),
    )
    .execute();
  await new Throttle(db, clock).resetAccount(OWNER);
  const rows = await db.selectFrom('throttles').select('key').execute();
  return rows.map((r) => r.key).sort();
}

describe.each(DIALECTS)('an account’s sign-in counters cleared on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('clears the account’s counters and every client’s, and nothing of another account', async () => {
    expect(await seedAndReset(t.ctx.db, t.clock)).toEqual([...COUNTERS.kept].sort());
  });
});

// A PostgreSQL database whose collation is linguistic (ICU, en-US), as many are: it orders ';'
// before ':', so a key range compared in it would hold none of the keys of its prefix.
describe.runIf(TEST_DATABASE_URL)('on a PostgreSQL database with a linguistic collation', () => {
  const name = `hygie_icu_${randomToken(9)
    .replace(/[^a-zA-Z0-9]/g, '')
    .toLowerCase()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  let handle: DbHandle;
  beforeAll(async () => {
    await admin(
      `create database ${name} template template0 locale_provider icu icu_locale 'en-US'`,
    );
    const url = new URL(TEST_DATABASE_URL ?? '');
    url.pathname = `/${name}`;
    handle = openDatabase({ kind: 'postgres', url: url.href, poolMax: 2 });
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle.close();
    await admin(`drop database if exists ${name} with (force)`);
  });

  it('clears every client’s counters of the account all the same', async () => {
    const { rows } = await sql<{ before: boolean }>`select ':' < ';' as before`.execute(handle.db);
    // The database's own order is not the characters' order (else this test would prove nothing).
    expect(rows[0]?.before).toBe(false);
    expect(await seedAndReset(handle.db, new TestClock())).toEqual([...COUNTERS.kept].sort());
  });
});
