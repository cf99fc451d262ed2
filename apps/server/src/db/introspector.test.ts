import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../test/helpers.js';
import { DIALECTS, openTestDatabase, TEST_DATABASE_URL } from '../test/helpers.js';
import { migrateToLatest } from './migrate.js';

describe.each(DIALECTS)('introspection on %s', (dialect) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    await migrateToLatest(t.handle);
  });

  afterAll(async () => {
    await t.handle.close();
    await t.drop();
  });

  it('lists the portal’s tables with their columns, the migrator’s own only when asked', async () => {
    const tables = await t.handle.db.introspection.getTables();
    const users = tables.find((table) => table.name === 'users');
    expect(users?.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['id', 'email']));
    expect(users?.columns.find((c) => c.name === 'email')?.isNullable).toBe(false);
    expect(tables.map((table) => table.name)).not.toContain('kysely_migration');
    const all = await t.handle.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(all.map((table) => table.name)).toContain('kysely_migration');
  });

  if (dialect === 'postgres') {
    const admin = () => new pg.Client({ connectionString: TEST_DATABASE_URL });

    it('sees its own schema only, not another tenant’s tables', async () => {
      const other = `t_other_${randomBytes(5).toString('hex')}`;
      const client = admin();
      await client.connect();
      try {
        await client.query(`create schema ${other}; create table ${other}.intruder (id int)`);
        const tables = await t.handle.db.introspection.getTables({
          withInternalKyselyTables: true,
        });
        expect(tables.map((table) => table.name)).not.toContain('intruder');
        expect(new Set(tables.map((table) => table.schema)).size).toBe(1);
      } finally {
        await client.query(`drop schema if exists ${other} cascade`);
        await client.end();
      }
    });

    it('does not fail while other schemas are dropped (another node or test file meanwhile)', async () => {
      const client = admin();
      await client.connect();
      try {
        // Kysely's own introspection failed here with `schema "…" does not exist`, taking the
        // migrator, and a node's start, with it.
        for (let round = 0; round < 40; round += 1) {
          const names = Array.from({ length: 5 }, () => `t_gone_${randomBytes(5).toString('hex')}`);
          await client.query(
            names.map((n) => `create schema ${n}; create table ${n}.x (id serial)`).join(';'),
          );
          const dropping = client.query(names.map((n) => `drop schema ${n} cascade`).join(';'));
          await expect(t.handle.db.introspection.getTables()).resolves.toEqual(
            expect.arrayContaining([expect.objectContaining({ name: 'users' })]),
          );
          await dropping;
        }
      } finally {
        await client.end();
      }
    });
  }
});
