import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  createTestApp,
  DIALECTS,
  openTestDatabase,
  signIn,
  TEST_DATABASE_URL,
  TestClient,
} from '../test/helpers.js';
import type { SearchUser } from '../test/search-users.js';
import { insertSearchUsers } from '../test/search-users.js';
import { MIGRATION_NAMES, migrateToLatest } from './migrate.js';

const BYTE_ORDER_KEYS = '0026-byte-order-keys';

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

// Migration 0026 gives the keys read by prefix the "C" collation on PostgreSQL. On a database of a
// linguistic collation (the likely choice of a French deployment) with accounts and counters in
// it, as one node migrates while another serves: every row kept as it was, the unique e-mail
// still refused twice, the serving node's prefix searches right from then on.
describe.skipIf(!TEST_DATABASE_URL)('migration 0026 on a populated fr_FR.UTF-8 database', () => {
  it('keeps every account and counter, and makes the prefix searches whole', async () => {
    const t = await createTestApp('postgres', { collation: 'fr_FR.UTF-8' });
    const migrating = t.reopenDatabase();
    try {
      const admin = new TestClient(t.app);
      expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
      // The columns as they were before 0026: in the database's collation.
      await sql`alter table throttles alter column key type varchar(120) collate "default"`.execute(
        t.ctx.db,
      );
      await sql`alter table users
        alter column email type varchar(180) collate "default",
        alter column search_name type varchar(210) collate "default"`.execute(t.ctx.db);
      // 0026 not yet recorded, nor those after it.
      await sql`delete from kysely_migration where name >= ${BYTE_ORDER_KEYS}`.execute(t.ctx.db);

      const accounts: SearchUser[] = Array.from({ length: 120 }, (_, i) => ({
        id: `m-${String(i).padStart(4, '0')}`,
        email: `user${i}@migrated.test`,
        firstName: ['Marie', 'Élodie', 'Jean'][i % 3] ?? 'Marie',
        lastName: i % 2 === 0 ? `Durand ${i}` : `Dupré ${i}`,
        createdAt: 1_750_000_000_000 + i,
      }));
      await insertSearchUsers(t, accounts);
      const counters = ['login:user:m-0001:203.0.113.7', 'login:user:m-0001:2001:db8::1', 'mfa:x'];
      for (const [i, key] of counters.entries()) {
        await sql`insert into throttles (key, failures, window_start, blocked_until)
          values (${key}, ${i + 1}, ${1_750_000_000_000 + i}, ${i === 0 ? null : 1_760_000_000_000})`.execute(
          t.ctx.db,
        );
      }
      const snapshot = async () => ({
        users: (await sql`select * from users order by id collate "C"`.execute(t.ctx.db)).rows,
        throttles: (await sql`select * from throttles order by key collate "C"`.execute(t.ctx.db))
          .rows,
      });
      const before = await snapshot();

      const found = async (q: string): Promise<string[]> => {
        const res = await admin.get(`/api/admin/users?q=${encodeURIComponent(q)}&pageSize=100`);
        expect(res.statusCode).toBe(200);
        return res
          .json<{ items: { email: string }[] }>()
          .items.map((u) => u.email)
          .sort();
      };
      const durands = accounts
        .filter((_, i) => i % 2 === 0)
        .map((a) => a.email)
        .sort();
      const user1x = accounts
        .map((a) => a.email)
        .filter((e) => e.startsWith('user1'))
        .sort();
      // The state 0026 repairs: the prefix ranges miss accounts in this collation.
      expect(await found('dur')).not.toEqual(durands);
      expect(await found('user1')).not.toEqual(user1x);

      expect(await migrateToLatest(migrating)).toEqual(
        MIGRATION_NAMES.filter((m) => m >= BYTE_ORDER_KEYS),
      );

      expect(await snapshot()).toEqual(before);
      const collations = await sql<{ column: string; collation: string | null }>`
        select table_name || '.' || column_name as column, collation_name as collation
        from information_schema.columns
        where table_schema = current_schema()
          and (table_name, column_name) in (('users', 'email'), ('users', 'search_name'),
            ('throttles', 'key'))
        order by 1`.execute(t.ctx.db);
      expect(collations.rows).toEqual([
        { column: 'throttles.key', collation: 'C' },
        { column: 'users.email', collation: 'C' },
        { column: 'users.search_name', collation: 'C' },
      ]);
      // The node that served through the migration finds every account of a prefix, its session
      // checks reading the admin again (changed since): their statement, prepared on its
      // connections before the e-mail's collation changed, is prepared anew.
      await sql`update users set first_name = first_name where email = ${ADMIN.email}`.execute(
        t.ctx.db,
      );
      expect(await found('dur')).toEqual(durands);
      expect(await found('user1')).toEqual(user1x);
      expect(await found('dupré')).toEqual(
        accounts
          .filter((_, i) => i % 2 === 1)
          .map((a) => a.email)
          .sort(),
      );
      await expect(
        insertSearchUsers(t, [{ ...accounts[0]!, id: 'm-twice' }]),
      ).rejects.toMatchObject({ code: '23505' });
    } finally {
      await migrating.close();
      await t.close();
    }
  });
});
