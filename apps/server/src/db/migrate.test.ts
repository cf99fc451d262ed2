import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase, TEST_DATABASE_URL } from '../test/helpers.js';
import { MIGRATION_NAMES, migrateToLatest } from './migrate.js';

// Kysely's migration lock on PostgreSQL (one advisory lock for the whole database).
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

describe.skipIf(!TEST_DATABASE_URL)('migrations on PostgreSQL', () => {
  it('wait for another node’s migrations longer than the statement time-out, then apply', async () => {
    const { handle, drop } = await openTestDatabase('postgres', { statementTimeoutMs: 200 });
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await other.connect();
    try {
      // Another node is migrating: it holds the lock for a second, five statement time-outs.
      await other.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
      const release = setTimeout(() => {
        void other.query(`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`);
      }, 1_000);
      const applied = await migrateToLatest(handle);
      clearTimeout(release);
      expect(applied[0]).toBe('0001-initial');
      // The app's own connections keep their time-out.
      await expect(
        handle.db.selectNoFrom((eb) => eb.fn('pg_sleep', [eb.lit(0.5)]).as('s')).execute(),
      ).rejects.toMatchObject({ code: '57014' });
    } finally {
      await other.end();
      await handle.close();
      await drop();
    }
  });
});

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  it('0025 finds the indexes an operator built ahead of it (docs/operations.md)', async () => {
    const { handle, drop } = await openTestDatabase(dialect);
    try {
      await migrateToLatest(handle);
      // Its indexes built already, as by `create index concurrently` before the deployment, and
      // the migration not yet recorded (nor those after it): it runs, builds nothing and fails on
      // nothing, and so do the later ones.
      const name = '0025-purge-and-list-indexes';
      await sql`delete from kysely_migration where name >= ${name}`.execute(handle.db);
      expect(await migrateToLatest(handle)).toEqual(MIGRATION_NAMES.filter((m) => m >= name));
    } finally {
      await handle.close();
      await drop();
    }
  });
});
