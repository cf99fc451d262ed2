import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../test/helpers.js';
import { DIALECTS, openTestDatabase } from '../test/helpers.js';
import type { Db } from './connection.js';
import { kept } from './connection.js';
import type { Slots } from './precompiled.js';
import { precompiled, precompiledByCount } from './precompiled.js';
import { transaction } from './transaction.js';

// docs/performance.md "Sign-in": a hot path's statement is built and compiled once per database,
// then run with each call's values; its text is the one Kysely builds with the values in place.

interface Counter {
  key: string;
  now: number;
  cutoff: number;
}

let builds = 0;
/** An upsert of the throttles' shape: constants, a cast in raw SQL, a condition, a returning. */
const claim = precompiled((db: Db, $: Slots<Counter>) => {
  builds++;
  return kept(
    db
      .insertInto('throttles')
      .values({ key: $('key'), failures: 0, window_start: $('now'), blocked_until: null })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ window_start: sql`cast(${$('now')} as bigint)` })
          .where('throttles.window_start', '<=', $('cutoff')),
      )
      .returning('window_start'),
  );
});
/** The same statement built with its values, as every statement was before. */
const claimWithValues = (db: Db, { key, now, cutoff }: Counter) =>
  kept(
    db
      .insertInto('throttles')
      .values({ key, failures: 0, window_start: now, blocked_until: null })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ window_start: sql`cast(${now} as bigint)` })
          .where('throttles.window_start', '<=', cutoff),
      )
      .returning('window_start'),
  );

const counterOf = precompiled((db: Db, $: Slots<{ key: string }>) =>
  db.selectFrom('throttles').select(['key', 'window_start']).where('key', '=', $('key')),
);
const countersOf = precompiledByCount((db: Db, $: Slots<readonly string[]>, count) =>
  db
    .selectFrom('throttles')
    .select('key')
    .where(
      'key',
      'in',
      Array.from({ length: count }, (_, i) => $(i)),
    )
    .orderBy('key'),
);
const forget = precompiled((db: Db, $: Slots<{ key: string; failures: number }>) =>
  db.deleteFrom('throttles').where('key', '=', $('key')).where('failures', '>=', $('failures')),
);

describe.each(DIALECTS)('a precompiled statement, on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    db = database.handle.db;
    await sql`create table throttles (key text primary key, failures integer not null,
      window_start bigint not null, blocked_until bigint)`.execute(db);
  });
  afterAll(async () => {
    await database.handle.close();
    await database.drop();
  });
  beforeEach(async () => {
    await sql`delete from throttles`.execute(db);
  });

  it('is the text Kysely builds with the values in place, the values its parameters', () => {
    const values = { key: 'login:a', now: 2_000, cutoff: 1_000 };
    const direct = claimWithValues(db, values).compile();
    const compiled = claim.compile(db, values);
    expect(compiled.sql).toBe(direct.sql);
    expect(compiled.parameters).toEqual(direct.parameters);
    expect(compiled.parameters).toEqual(['login:a', 0, 2_000, null, 2_000, 1_000]);
    // Another call's values, in the same places.
    expect(claim.compile(db, { key: 'login:b', now: 7, cutoff: 3 }).parameters).toEqual([
      'login:b',
      0,
      7,
      null,
      7,
      3,
    ]);
  });

  it('runs on the database and in its transactions, each run with its own values', async () => {
    expect(await claim.first(db, { key: 'a', now: 100, cutoff: 50 })).toEqual({
      window_start: 100,
    });
    // Within the window: the condition refuses the update, nothing is returned.
    expect(await claim.first(db, { key: 'a', now: 120, cutoff: 50 })).toBeUndefined();
    const inside = await transaction(db, async (trx) => {
      await claim.run(trx, { key: 'b', now: 300, cutoff: 0 });
      await claim.run(trx, { key: 'c', now: 400, cutoff: 0 });
      // The transaction reads its own writes.
      return counterOf.all(trx, { key: 'c' });
    });
    expect(inside).toEqual([{ key: 'c', window_start: 400 }]);
    expect(await counterOf.first(db, { key: 'b' })).toEqual({ key: 'b', window_start: 300 });
    const { numAffectedRows } = await forget.run(db, { key: 'b', failures: 0 });
    expect(numAffectedRows).toBe(1n);
    expect(await counterOf.first(db, { key: 'b' })).toBeUndefined();
  });

  it('by a list, is one statement for each length, each run with its own list', async () => {
    for (const key of ['a', 'b', 'c']) await claim.run(db, { key, now: 1, cutoff: 0 });
    const keysOf = async (keys: string[]) => (await countersOf(db, keys)).map((row) => row.key);
    expect(await keysOf(['b'])).toEqual(['b']);
    expect(await keysOf(['c', 'a', 'z'])).toEqual(['a', 'c']);
    // Back to one key: its own statement, with this run's key.
    expect(await keysOf(['a'])).toEqual(['a']);
    expect(await keysOf(['c', 'b'])).toEqual(['b', 'c']);
  });

  it('is built once per database, its transactions included', async () => {
    const other = database.reopen();
    try {
      const before = builds;
      for (let i = 0; i < 5; i++) await claim.run(db, { key: `k${i}`, now: i, cutoff: 0 });
      await transaction(db, (trx) => claim.run(trx, { key: 'k9', now: 9, cutoff: 0 }));
      // Built at most once here (once if no earlier test of this database built it).
      expect(builds - before).toBeLessThanOrEqual(1);
      const afterFirst = builds;
      await claim.run(other.db, { key: 'k10', now: 10, cutoff: 0 });
      await claim.run(other.db, { key: 'k11', now: 11, cutoff: 0 });
      expect(builds - afterFirst).toBe(1);
      expect((await counterOf.all(db, { key: 'k11' })).length).toBe(1);
    } finally {
      await other.close();
    }
  });
});
