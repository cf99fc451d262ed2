import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS } from '../../test/helpers.js';
import { findSessionByTokenHash } from './repository.js';

// architecture §10: the session check behind every authenticated call is one indexed lookup.
describe.each(DIALECTS)('session lookup plan on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('finds the session through the unique token-hash index and the user by primary key', async () => {
    const compiled = t.ctx.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'users.email'])
      .where('sessions.token_hash', '=', 'f'.repeat(64))
      .compile();
    if (dialect === 'sqlite') {
      const plan = await sql
        .raw<{ detail: string }>(
          `explain query plan ${compiled.sql.replace('?', `'${'f'.repeat(64)}'`)}`,
        )
        .execute(t.ctx.db);
      const details = plan.rows.map((r) => r.detail).join('\n');
      expect(details).toMatch(/SEARCH sessions USING INDEX sessions_token_hash_uq/);
      expect(details).toMatch(
        /SEARCH users USING INDEX sqlite_autoindex_users_1|SEARCH users USING PRIMARY KEY/,
      );
      expect(details).not.toMatch(/SCAN/);
    } else {
      // Small test tables make a sequential scan cheapest; forbid it to prove an index serves the query.
      await t.ctx.db.connection().execute(async (conn) => {
        await sql`set enable_seqscan = off`.execute(conn);
        const plan = await sql
          .raw<{ 'QUERY PLAN': string }>(
            `explain ${compiled.sql.replace('$1', `'${'f'.repeat(64)}'`)}`,
          )
          .execute(conn);
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Index Scan using sessions_token_hash_uq/);
        expect(text).not.toMatch(/Seq Scan/);
        await sql`reset enable_seqscan`.execute(conn);
      });
    }
    expect(await findSessionByTokenHash(t.ctx.db, 'f'.repeat(64))).toBeUndefined();
  });
});
