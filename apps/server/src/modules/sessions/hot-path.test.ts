import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS } from '../../test/helpers.js';
import { explain } from '../../test/query-log.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import { openSession } from './service.js';
import { findSessionByTokenHash } from './repository.js';

// architecture §10: the session check behind every authenticated call is one indexed lookup.
describe.each(DIALECTS)('session lookup plan on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A new account with a complete session: its id and the session's token. */
  async function liveSession(email: string): Promise<{ userId: string; token: string }> {
    const userId = await createUser(t, { email, password: 'Hot-Path-4821' });
    const meta = { ip: null, userAgent: null };
    const { token } = await openSession(t.ctx, userId, 'complete', meta, { amr: ['pwd'] });
    return { userId, token };
  }

  it('runs one statement: the session by its unique token-hash index, the user by primary key', async () => {
    let found: unknown = 'not run';
    const queries = await t.queries.during(async () => {
      found = await findSessionByTokenHash(t.ctx.db, 'f'.repeat(64));
    });
    expect(found).toBeUndefined();
    expect(queries).toHaveLength(1);
    const plan = await explain(t.ctx.db, dialect, queries[0]!);
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/SEARCH sessions USING INDEX sessions_token_hash_uq/);
      expect(plan).toMatch(
        /SEARCH users USING INDEX sqlite_autoindex_users_1|SEARCH users USING PRIMARY KEY/,
      );
      expect(plan).not.toMatch(/SCAN/);
    } else {
      expect(plan).toMatch(/Index Scan using sessions_token_hash_uq/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
  });

  it('reads the user by primary key only when this process has not seen its version', async () => {
    const { token } = await liveSession('hot-path@hygie.test');
    const cold = await t.queries.during(() => findSessionByTokenHash(t.ctx.db, hashToken(token)));
    expect(cold).toHaveLength(2);
    const plan = await explain(t.ctx.db, dialect, cold[1]!);
    if (dialect === 'sqlite') {
      expect(plan).toMatch(
        /SEARCH users USING INDEX sqlite_autoindex_users_1|SEARCH users USING PRIMARY KEY/,
      );
      expect(plan).not.toMatch(/SCAN/);
    } else {
      expect(plan).toMatch(/Index Scan using users_pkey/);
    }
    const warm = await t.queries.during(async () => {
      const found = await findSessionByTokenHash(t.ctx.db, hashToken(token));
      expect(found?.user.email).toBe('hot-path@hygie.test');
    });
    expect(warm).toHaveLength(1);
    expect(await findSessionByTokenHash(t.ctx.db, hashToken(randomToken()))).toBeUndefined();
  });

  // PostgreSQL only (SQLite keeps its statements in the process already): defined there alone.
  if (dialect === 'postgres')
    it('PostgreSQL keeps the lookups prepared on the connection, under a name', async () => {
      const { userId, token } = await liveSession('prepared@hygie.test');
      await t.ctx.db.connection().execute(async (connection) => {
        expect((await findSessionByTokenHash(connection, hashToken(token)))?.user_id).toBe(userId);
        const prepared = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements`.execute(connection);
        const session = prepared.rows.find((r) => r.statement.includes('"sessions"."token_hash"'));
        expect(session?.name).toMatch(/^hygie_kept_\d+$/);
      });
    });
});
