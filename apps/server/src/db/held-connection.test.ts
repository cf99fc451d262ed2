import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { echo } from '../test/batched-reads.js';
import { TEST_DATABASE_URL } from '../test/helpers.js';
import { openDatabase, pooledBatchRead } from './connection.js';

// docs/performance.md "Session check": on PostgreSQL the batched reads keep one connection of the
// pool for themselves, except in a pool of one, which needs it for everything else.
describe.runIf(TEST_DATABASE_URL)('the connection kept for the batched reads', () => {
  it.each([1, 2])('leaves a pool of %i connection(s) to the other statements', async (poolMax) => {
    const database = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL ?? '', poolMax });
    try {
      const read = pooledBatchRead(database.db, echo, (row) => row.k);
      if (!read) throw new Error('no batched read on PostgreSQL');
      expect((await read('a'))?.k).toBe('a');
      // Another statement, while the batched reads go on: it gets a connection.
      const [other, again] = await Promise.all([
        sql<{ one: number }>`select 1 as one`.execute(database.db),
        read('b'),
      ]);
      expect(other.rows[0]?.one).toBe(1);
      expect(again?.k).toBe('b');
    } finally {
      await database.close();
    }
  });
});
