import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS } from '../../test/helpers.js';
import { insertSearchUsers } from '../../test/search-users.js';
import { recomputeSearchNames } from './0022-search-indexes.js';

// 0005 back-filled search_name with lower() alone; 0022 recomputes it as the application does.
describe.each(DIALECTS)('migration 0022 on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('recomputes the name keys 0005 left with their accents, and leaves the others', async () => {
    const users = Array.from({ length: 1203 }, (_, i) => ({
      id: `m22-${String(i).padStart(5, '0')}`,
      email: `m22-${i}@hygie.test`,
      firstName: i % 2 === 0 ? 'Élodie' : 'Hugo',
      lastName: i % 2 === 0 ? 'Lefèvre' : 'Martin',
      createdAt: 1_700_000_000_000,
    }));
    await insertSearchUsers(t, users);
    // As 0005 wrote them: lower case, accents kept.
    await sql`update users set search_name = lower(last_name || ' ' || first_name) where id like 'm22-%'`.execute(
      t.ctx.db,
    );
    const before = await t.ctx.db
      .selectFrom('users')
      .select('search_name')
      .where('id', '=', 'm22-01202')
      .executeTakeFirstOrThrow();
    expect(before.search_name).not.toBe('lefevre elodie');

    await recomputeSearchNames(t.ctx.db);

    const rows = await t.ctx.db
      .selectFrom('users')
      .select(['id', 'search_name'])
      .where('id', 'like', 'm22-%')
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(users.length);
    for (const [i, row] of rows.entries()) {
      expect(row.search_name).toBe(i % 2 === 0 ? 'lefevre elodie' : 'martin hugo');
    }
  });
});
