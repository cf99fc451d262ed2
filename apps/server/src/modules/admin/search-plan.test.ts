import { detectUsernameKind } from '@hygie/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { explain, explainAsPlanned } from '../../test/query-log.js';
import { seedSearchUsers } from '../../test/search-users.js';
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
  /** Enough rows for PostgreSQL's planner to prefer an index to reading the table. */
  const SEEDED = 5000;

  it.each([
    // users_email_search_idx also begins with the e-mail: either serves the equality.
    ['a@b.fr', 'email', [/users_email_uq|users_email_search_idx/]],
    ['06 12 34 56 78', 'phone', [/users_phone_idx/]],
    ['295109912611193', 'ins', [/users_ins_index_uq/]],
    ['10002909371', 'rpps', [/users_professional_id_value_uq/]],
    ['810002909371', 'national_professional_id', [/users_professional_id_value_uq/]],
    ['0123456789', 'national_professional_id', [/users_professional_id_value_uq/]],
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

  /**
   * The states of the planner's statistics a deployment's table is searched in. SQLite's is the
   * one the portal keeps — it never analyses its file, so the planner goes by its rules alone —
   * and the one an operator's ANALYZE in the `sqlite3` shell leaves; both must choose the
   * index. PostgreSQL's autovacuum analyses a table once it has grown; until its first pass, a
   * freshly imported table is planned from guesses (a sort of the few rows it expects), which no
   * settled deployment sees.
   */
  const STATISTICS =
    dialect === 'sqlite' ? (['without statistics', 'analysed'] as const) : (['analysed'] as const);

  describe('the admin search, on a seeded table', () => {
    let admin: TestClient;
    beforeAll(async () => {
      admin = new TestClient(t.app);
      await signIn(t, admin, ADMIN.email, ADMIN.password);
      await seedSearchUsers(t, SEEDED);
    });

    // In order: the table analysed only once its plans without statistics are checked.
    describe.each(STATISTICS)('%s', (statistics) => {
      beforeAll(async () => {
        if (statistics === 'analysed') await sql`analyze`.execute(t.ctx.db);
        else {
          // The state is real: neither the migrations nor the server's start analysed the file.
          const tables = await sql<{ n: number }>`
            select count(*) as n from sqlite_master where name like 'sqlite_stat%'`.execute(
            t.ctx.db,
          );
          expect(tables.rows[0]?.n).toBe(0);
        }
      });

      // Each shape of search, its pages after the first, and its filters: the statements the code
      // sends, as the planner would run them on a table of this size (no scan switched off).
      it.each([
        ['', /users_created_idx/],
        // A status filter: its own index, or checked on the entries of the newest-first one.
        ['?status=locked', /users_status_created_idx|users_created_idx/],
        // The admins (a handful) have their own partial index in each order: only theirs are read.
        ['?role=admin', /users_admin_created_idx/],
        ['?role=admin&type=professional', /users_admin_created_idx/],
        ['?role=user&type=professional', /users_created_idx/],
        ['?q=durand', /users_name_idx/],
        ['?q=Durand%2012', /users_name_idx/],
        ['?q=durand&status=active&role=user&type=patient', /users_status_name_idx|users_name_idx/],
        ['?q=durand&status=locked', /users_status_name_idx|users_name_idx/],
        ['?q=seed12%40', /users_email/],
        // A status and an e-mail: the e-mail's range, the status checked on its entries (without
        // statistics SQLite took every account of the status and sorted them: 26 ms at 1M).
        ['?q=seed12%40&status=locked', /users_(status_)?email/],
        // A name no account bears: its range is empty, then the e-mails', with the status.
        ['?q=zzz&status=locked', /users_status_name_idx|users_(status_)?email/],
        [
          '?q=06%2000%2000%2000%2001&status=locked',
          /users_phone_idx|users_ins_index_uq|users_professional_id_value_uq/,
        ],
        ['?q=durand&role=admin', /users_admin_name_idx/],
        // The admins with a status: their own index, the status checked on their rows (the
        // status's index walked every account of it to find them: 495–790 ms at 1M).
        // (PostgreSQL may read the admins from any of their indexes, bitmap then sort.)
        ['?status=active&role=admin', /users_admin_\w+_idx/],
        ['?q=durand&status=locked&role=admin', /users_admin_name_idx/],
        ['?q=seed1%40&status=active&role=admin', /users_admin_email_idx/],
        ['?status=locked&type=professional', /users_status_created_idx|users_created_idx/],
        // The accounts without a profile (one in fifty): their own index in each order.
        ['?type=none', /users_unprofiled_created_idx/],
        ['?status=active&type=none', /users_unprofiled_\w+_idx/],
        ['?q=durand&type=none', /users_unprofiled_name_idx/],
        ['?q=seed1%40&status=locked&type=none', /users_unprofiled_email_idx/],
        ['?q=seed1%40&status=pending_validation&type=patient', /users_(status_)?email/],
        // No admin of that name: the name, then the e-mail, each on the admins' index.
        ['?q=Durand%2012&role=admin&type=patient', /users_admin_(name|email)_idx/],
        ['?q=seed1&role=admin', /users_admin_(name|email)_idx/],
        [
          '?q=06%2000%2000%2000%2001',
          /users_phone_idx|users_ins_index_uq|users_professional_id_value_uq/,
        ],
        ['?q=295109912611193', /users_ins_index_uq|users_professional_id_value_uq/],
        ['?q=10002909371', /users_ins_index_uq|users_professional_id_value_uq/],
      ])('GET /api/admin/users%s reads one index range in its order', async (query, index) => {
        const separator = query === '' ? '?' : '&';
        let cursor: string | null = null;
        for (const page of [1, 2]) {
          const url = `/api/admin/users${query}${separator}pageSize=5${
            cursor ? `&cursor=${cursor}` : ''
          }`;
          let body: { nextCursor: string | null } = { nextCursor: null };
          const queries = await t.queries.during(async () => {
            const response = await admin.get(url);
            expect(response.statusCode).toBe(200);
            body = response.json();
          });
          const searches = queries.filter(
            (q) => /"search_name"/.test(q.sql) && /from "users"/.test(q.sql),
          );
          expect(searches.length).toBeGreaterThan(0);
          for (const search of searches) {
            const plan = await explainAsPlanned(t.ctx.db, dialect, search);
            expect(plan).toMatch(index);
            if (dialect === 'sqlite') {
              expect(plan).not.toMatch(/^SCAN users$/m);
              expect(plan).not.toMatch(/TEMP B-TREE/);
            } else if (/Bitmap Index Scan on users_(admin|unprofiled)_\w+_idx/.test(plan)) {
              // A partial index of the admins or of the accounts without a profile holds a
              // handful: PostgreSQL may read its range whole and sort it, and nothing else.
              expect(plan).not.toMatch(
                /Seq Scan|Bitmap Index Scan on (?!users_admin_|users_unprofiled_)/,
              );
            } else {
              expect(plan).toMatch(/Index (Only )?Scan/);
              expect(plan).not.toMatch(/Seq Scan|Sort|Bitmap/);
            }
          }
          if (page === 1) cursor = body.nextCursor;
          if (!cursor) break;
        }
      });
    });
  });
});
