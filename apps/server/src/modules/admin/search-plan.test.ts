import { detectUsernameKind } from '@hygie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { explain } from '../../test/query-log.js';
import { findByUsername } from '../auth/service.js';

// architecture §10: the login lookups and the admin search are index ranges, never table scans.
// Each plan is that of the statement the code sends, recorded as it runs.
describe.each(DIALECTS)('query plans on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const usersScan = /SCAN users|Seq Scan on users/;

  it.each([
    ['a@b.fr', 'email', [/users_email_uq/]],
    ['06 12 34 56 78', 'phone', [/users_phone_idx/]],
    ['295109912611193', 'ins', [/users_ins_index_uq/]],
    ['10002909371', 'rpps', [/users_professional_id_uq/]],
    ['810002909371', 'national_professional_id', [/users_professional_id_uq/]],
    ['0123456789', 'national_professional_id', [/users_professional_id_uq/]],
  ])('signing in as %s (%s) uses its index', async (username, kind, indexes) => {
    expect(detectUsernameKind(username)).toBe(kind);
    const queries = await t.queries.during(() => findByUsername(t.ctx.db, username));
    expect(queries).toHaveLength(indexes.length);
    for (const [i, query] of queries.entries()) {
      const plan = await explain(t.ctx.db, dialect, query);
      expect(plan).toMatch(indexes[i]!);
      expect(plan).not.toMatch(usersScan);
    }
  });

  it('the admin search query uses only indexes for every branch', async () => {
    const admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
    let status = 0;
    const queries = await t.queries.during(async () => {
      status = (await admin.get('/api/admin/users?q=dur')).statusCode;
    });
    expect(status).toBe(200);
    const search = queries.filter((q) => /search_name/.test(q.sql) && /from "users"/.test(q.sql));
    // The page query ORs one index range per identifier kind.
    expect(search.some((q) => / or /i.test(q.sql))).toBe(true);
    for (const query of search) {
      const plan = await explain(t.ctx.db, dialect, query);
      expect(plan).not.toMatch(usersScan);
      if (/ or /i.test(query.sql)) {
        if (dialect === 'sqlite') expect(plan).toMatch(/MULTI-INDEX OR/);
        else expect(plan).toMatch(/BitmapOr|Index Scan/);
      }
    }
  });
});
