import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { ThrottleTable } from '../../db/schema.js';
import type { Precompiled, Slots } from '../../db/precompiled.js';
import { precompiled, precompiledByCount } from '../../db/precompiled.js';

// The statements a sign-in runs are compiled once per database (`precompiled`), one per shape
// where a shape varies (the keys of findThrottles, the block curve of reserveAttempt).

const throttleByKey = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(
    db
      .selectFrom('throttles')
      .select(['failures', 'blocked_until', 'window_start'])
      .where('key', '=', $('key')),
  ),
);

export function findThrottle(db: Db, key: string) {
  return throttleByKey.first(db, { key });
}

const throttlesByKeys = precompiledByCount((db: Db, $: Slots<readonly string[]>, count) =>
  kept(
    db
      .selectFrom('throttles')
      .select(['key', 'failures', 'blocked_until', 'window_start'])
      .where(
        'key',
        'in',
        Array.from({ length: count }, (_, i) => $(i)),
      ),
  ),
);

/** Several keys' counters in one statement (primary key lookups); keys without a row are absent. */
export function findThrottles(db: Db, keys: readonly string[]): Promise<ThrottleTable[]> {
  return throttlesByKeys(db, keys);
}

/**
 * Counts one failure in a single upsert (parallel failures are all counted); a count whose window
 * started before `cutoff` restarts at 1. Returns the new count and its window start.
 */
const failureCounted = precompiled(
  (db: Db, $: Slots<{ key: string; now: number; cutoff: number }>) =>
    db
      .insertInto('throttles')
      .values({ key: $('key'), failures: 1, window_start: $('now'), blocked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('throttles.window_start', '<', $('cutoff'))
            .then(1)
            .else(eb('throttles.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('throttles.window_start', '<', $('cutoff'))
            .then($('now'))
            .else(eb.ref('throttles.window_start'))
            .end(),
        })),
      )
      .returning(['failures', 'window_start']),
);

export async function incrementFailures(db: Db, key: string, now: number, cutoff: number) {
  const row = await failureCounted.first(db, { key, now, cutoff });
  if (!row) throw new Error('the failure count returned no row');
  return row;
}

/** Blocks the key until `until`, never shortening a longer block set by a parallel failure. */
export async function extendBlock(db: Db, key: string, until: number): Promise<void> {
  await db
    .updateTable('throttles')
    .set({ blocked_until: until })
    .where('key', '=', key)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', until)]))
    .execute();
}

const throttleDeleted = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.deleteFrom('throttles').where('key', '=', $('key'))),
);

export async function deleteThrottle(db: Db, key: string): Promise<void> {
  await throttleDeleted.run(db, { key });
}

const windowStartOf = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.selectFrom('throttles').select('window_start').where('key', '=', $('key'))),
);

/** When the key's window started (a cooldown's last request), if it has one. */
export async function findWindowStart(db: Db, key: string): Promise<number | undefined> {
  return (await windowStartOf.first(db, { key }))?.window_start;
}

const windowClaimed = precompiled(
  (db: Db, $: Slots<{ key: string; now: number; cutoff: number }>) =>
    kept(
      db
        .insertInto('throttles')
        .values({ key: $('key'), failures: 0, window_start: $('now'), blocked_until: null })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({ window_start: $('now') })
            .where('throttles.window_start', '<=', $('cutoff')),
        )
        .returning('window_start'),
    ),
);

/**
 * Starts the key's window at `now` unless it started after `cutoff`, in one statement: of
 * parallel claims exactly one wins. Returns whether this one did.
 */
export async function claimWindow(
  db: Db,
  key: string,
  now: number,
  cutoff: number,
): Promise<boolean> {
  return (await windowClaimed.first(db, { key, now, cutoff })) !== undefined;
}

/** The attempts reserveAttempt's block curve may change over; later ones get its last value. */
const MAX_STEPS = 24;

/**
 * Reserves one attempt under `key` unless it is blocked, in one statement: the attempt is counted
 * before the password is checked (a parallel burst gets no more checks than a sequence), and the
 * block its failure would earn (`blockMs(n)` for the n-th attempt in a row) is set with it.
 * Returns the attempt's number, or undefined while the key is blocked.
 */
export async function reserveAttempt(
  db: Db,
  key: string,
  now: number,
  blockMs: (attempt: number) => number,
): Promise<number | undefined> {
  const until = (attempt: number) => {
    const ms = blockMs(attempt);
    return ms > 0 ? now + ms : null;
  };
  // The curve reaches its ceiling within these steps; later attempts get the last one. Only the
  // steps below the ceiling are spelled out: one statement for each curve (the settings').
  const ceiling = until(MAX_STEPS + 1);
  const steps = Array.from({ length: MAX_STEPS }, (_, i) => i + 1).filter(
    (n) => until(n) !== ceiling,
  );
  const shape = steps.join(',');
  let query = attemptReserved.get(shape);
  if (!query) {
    query = attemptReservedFor(steps);
    attemptReserved.set(shape, query);
  }
  const values: ReservedAttempt = {
    key,
    now,
    first: until(1),
    ceiling,
    steps: steps.map((n) => until(n)),
  };
  return (await query.first(db, values))?.failures;
}

interface ReservedAttempt {
  key: string;
  now: number;
  /** The block of a first attempt. */
  first: number | null;
  /** The block of any attempt past the steps. */
  ceiling: number | null;
  /** The block of the n-th attempt of each step, in the steps' order. */
  steps: (number | null)[];
}

/** reserveAttempt's statement for each curve's steps (a few curves: the settings'). */
const attemptReserved = new Map<string, Precompiled<ReservedAttempt, { failures: number }>>();

function attemptReservedFor(steps: readonly number[]) {
  return precompiled((db: Db, $: Slots<ReservedAttempt>) => {
    const last = sql<number | null>`cast(${$('ceiling')} as bigint)`;
    const blockedUntil = steps.length
      ? sql<number | null>`case throttles.failures + 1 ${sql.join(
          steps.map((n, i) => sql`when ${n} then cast(${$('steps', i)} as bigint)`),
          sql` `,
        )} else ${last} end`
      : last;
    return kept(
      db
        .insertInto('throttles')
        .values({ key: $('key'), failures: 1, window_start: $('now'), blocked_until: $('first') })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              failures: sql`throttles.failures + 1`,
              blocked_until: blockedUntil,
            })
            .where((eb) =>
              eb.or([
                eb('throttles.blocked_until', 'is', null),
                eb('throttles.blocked_until', '<=', $('now')),
              ]),
            ),
        )
        .returning('failures'),
    );
  });
}

/**
 * Deletes every key that starts with `prefix` (an account's per-client counts) as one range of
 * the key's index: from the prefix up to the prefix with its last character's successor. Keys
 * compare character by character on both databases (migration 0026); they are ASCII.
 */
export async function deleteThrottlesWithPrefix(db: Db, prefix: string): Promise<void> {
  if (!/^[\x20-\x7e]+$/.test(prefix)) throw new Error('a throttle key prefix is printable ASCII');
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  await db.deleteFrom('throttles').where('key', '>=', prefix).where('key', '<', end).execute();
}

/** Retention: counters whose window started before `before` and that block nothing now go. */
export async function deleteStaleThrottles(db: Db, before: number, now: number): Promise<number> {
  const result = await db
    .deleteFrom('throttles')
    .where('window_start', '<', before)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Reserves one attempt in a counting window of `windowMs` that opens at the first attempt, in one
 * statement, unless the key is blocked: the attempt is counted before the password is checked, so
 * parallel attempts are never counted past the limits. From the `free`-th attempt on, the next one
 * waits `waitMs`; the `max`-th closes the key until its window is over. Returns the attempt's
 * number, or undefined while the key is blocked.
 */
export async function reserveWindowedAttempt(
  db: Db,
  key: string,
  now: number,
  limits: { windowMs: number; free: number; waitMs: number; max: number },
): Promise<number | undefined> {
  const { windowMs, free, waitMs, max } = limits;
  const firstBlock = free <= 1 ? now + waitMs : null;
  const values = { key, now, windowMs, free, max, firstBlock, expiredFrom: now - windowMs };
  return (await windowedAttemptReserved.first(db, { ...values, waitUntil: now + waitMs }))
    ?.failures;
}

const windowedAttemptReserved = precompiled(
  (
    db: Db,
    $: Slots<{
      key: string;
      now: number;
      windowMs: number;
      free: number;
      max: number;
      /** The block of a first attempt (when one is all that is free). */
      firstBlock: number | null;
      /** A window that started at this time or before is over. */
      expiredFrom: number;
      waitUntil: number;
    }>,
  ) => {
    const expired = sql<boolean>`throttles.window_start <= cast(${$('expiredFrom')} as bigint)`;
    const next = sql<number>`throttles.failures + 1`;
    return kept(
      db
        .insertInto('throttles')
        .values({
          key: $('key'),
          failures: 1,
          window_start: $('now'),
          blocked_until: $('firstBlock'),
        })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              failures: sql`case when ${expired} then 1 else ${next} end`,
              window_start: sql`case when ${expired} then cast(${$('now')} as bigint) else throttles.window_start end`,
              blocked_until: sql`case
            when ${expired} then cast(${$('firstBlock')} as bigint)
            when ${next} >= ${$('max')} then throttles.window_start + cast(${$('windowMs')} as bigint)
            when ${next} >= ${$('free')} then cast(${$('waitUntil')} as bigint)
            else null end`,
            })
            .where((eb) =>
              eb.or([
                expired,
                eb.and([
                  eb.or([
                    eb('throttles.blocked_until', 'is', null),
                    eb('throttles.blocked_until', '<=', $('now')),
                  ]),
                  eb('throttles.failures', '<', $('max')),
                ]),
              ]),
            ),
        )
        .returning('failures'),
    );
  },
);

/** Gives back an attempt reserved under `key` (it was not a failure), and lifts the key's wait. */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await attemptReleased.run(db, { key });
}

const attemptReleased = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(
    db
      .updateTable('throttles')
      .set({ failures: sql`throttles.failures - 1`, blocked_until: null })
      .where('key', '=', $('key'))
      .where('failures', '>', 0),
  ),
);
