import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../test/helpers.js';
import { KEPT_MARK, MAX_KEPT_STATEMENTS, openDatabase } from './connection.js';

// docs/performance.md "Sign-in": a statement marked `kept` is prepared under a name on each
// PostgreSQL connection from its first run; MAX_KEPT_STATEMENTS bounds how many.
describe.runIf(TEST_DATABASE_URL)('the statements kept prepared on PostgreSQL', () => {
  it('prepares a marked statement under a name, an unmarked one not, and no more than the bound', async () => {
    // A pool of one connection: every statement below runs on it.
    const database = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL ?? '', poolMax: 1 });
    const { db } = database;
    try {
      /** How many statements of this text the connection keeps prepared. */
      const preparedAs = async (pattern: string) =>
        (
          await sql<{ n: number }>`
            select count(*)::int as n from pg_prepared_statements where statement like ${pattern}`.execute(
            db,
          )
        ).rows[0]?.n;
      const marked = (i: number) => `select ${i}::int + $1::int as n ${KEPT_MARK}`;
      const run = async (text: string) => {
        const query: CompiledQuery<{ n: number }> = CompiledQuery.raw(text, [1]);
        return (await db.executeQuery(query)).rows[0]?.n;
      };

      expect(await run(marked(0))).toBe(1);
      expect(await preparedAs(marked(0))).toBe(1);
      expect(await run('select 41 + $1::int as n')).toBe(42);
      expect(await preparedAs('select 41 + $1::int as n')).toBe(0);
      // Past the bound, a marked statement still runs, unnamed.
      for (let i = 1; i <= MAX_KEPT_STATEMENTS + 4; i++) expect(await run(marked(i))).toBe(i + 1);
      expect(await preparedAs(`%${KEPT_MARK}`)).toBe(MAX_KEPT_STATEMENTS);
      expect(await preparedAs(marked(MAX_KEPT_STATEMENTS + 4))).toBe(0);
    } finally {
      await database.close();
    }
  });
});
