import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../../test/helpers.js';

// architecture §10: the login lookups and the admin search are index ranges, never table scans.
describe.each(DIALECTS)('query plans on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Runs `statement` under EXPLAIN; on PostgreSQL sequential scans are disabled to see the index path. */
  async function plan(statement: string): Promise<string> {
    if (dialect === 'sqlite') {
      const rows = await sql
        .raw<{ detail: string }>(`explain query plan ${statement}`)
        .execute(t.ctx.db);
      return rows.rows.map((r) => r.detail).join('\n');
    }
    return t.ctx.db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      const rows = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${statement}`).execute(conn);
      await sql`reset enable_seqscan`.execute(conn);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it.each([
    ["select id from users where email = 'a@b.fr'", /users_email_uq/],
    ["select id from users where phone = '+33612345678'", /users_phone_idx/],
    ["select id from users where ins = '295109912611193'", /users_ins_uq/],
    [
      "select id from users where professional_id_type = 'RPPS' and professional_id = '10002909371'",
      /users_professional_id_uq/,
    ],
    [
      "select id from users where search_name >= 'dur' and search_name < 'dur\uffff'",
      /users_search_name_idx/,
    ],
  ])('%s uses its index', async (statement, index) => {
    const text = await plan(statement);
    expect(text).toMatch(index);
    expect(text).not.toMatch(/SCAN users|Seq Scan on users/);
  });

  it('the admin search query uses only indexes for every branch', async () => {
    const admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
    // Compile the same query the route runs (captured from the Kysely log would be the same shape).
    const text = await plan(
      `select id from users where ((email >= 'dur' and email < 'dur\uffff') or (search_name >= 'dur' and search_name < 'dur\uffff') or ins = 'DUR' or (professional_id_type in ('RPPS','ADELI') and professional_id = 'dur')) order by created_at desc limit 21`,
    );
    expect(text).not.toMatch(/SCAN users|Seq Scan on users/);
    if (dialect === 'sqlite') expect(text).toMatch(/MULTI-INDEX OR/);
    else expect(text).toMatch(/BitmapOr|Index Scan/);
    expect((await admin.get('/api/admin/users?q=dur')).statusCode).toBe(200);
  });
});
