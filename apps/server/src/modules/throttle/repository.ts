import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';

export function findThrottle(db: Db, key: string) {
  return kept(
    db
      .selectFrom('throttles')
      .select(['failures', 'blocked_until', 'window_start'])
      .where('key', '=', key),
  ).executeTakeFirst();
}

/** Several keys' counters in one statement (primary key lookups); keys without a row are absent. */
export function findThrottles(db: Db, keys: readonly string[]) {
  return kept(
    db
      .selectFrom('throttles')
      .select(['key', 'failures', 'blocked_until', 'window_start'])
      .where('key', 'in', keys),
  ).execute();
}

/**
 * Counts one failure in a single upsert (parallel failures are all counted); a count whose window
 * started before `cutoff` restarts at 1. Returns the new count and its window start.
 */
export function incrementFailures(db: Db, key: string, now: number, cutoff: number) {
  return db
    .insertInto('throttles')
    .values({ key, failures: 1, window_start: now, blocked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when('throttles.window_start', '<', cutoff)
          .then(1)
          .else(eb('throttles.failures', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('throttles.window_start', '<', cutoff)
          .then(now)
          .else(eb.ref('throttles.window_start'))
          .end(),
      })),
    )
    .returning(['failures', 'window_start'])
    .executeTakeFirstOrThrow();
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

export async function deleteThrottle(db: Db, key: string): Promise<void> {
  await kept(db.deleteFrom('throttles').where('key', '=', key)).execute();
}

/** When the key's window started (a cooldown's last request), if it has one. */
export async function findWindowStart(db: Db, key: string): Promise<number | undefined> {
  const row = await kept(
    db.selectFrom('throttles').select('window_start').where('key', '=', key),
  ).executeTakeFirst();
  return row?.window_start;
}

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
  const claimed = await kept(
    db
      .insertInto('throttles')
      .values({ key, failures: 0, window_start: now, blocked_until: null })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ window_start: now })
          .where('throttles.window_start', '<=', cutoff),
      )
      .returning('window_start'),
  ).executeTakeFirst();
  return claimed !== undefined;
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
  // steps below the ceiling are spelled out (the statement is built at every sign-in).
  const ceiling = until(MAX_STEPS + 1);
  const steps = Array.from({ length: MAX_STEPS }, (_, i) => i + 1).filter(
    (n) => until(n) !== ceiling,
  );
  const last = sql<number | null>`cast(${ceiling} as bigint)`;
  const blockedUntil = steps.length
    ? sql<number | null>`case throttles.failures + 1 ${sql.join(
        steps.map((n) => sql`when ${n} then cast(${until(n)} as bigint)`),
        sql` `,
      )} else ${last} end`
    : last;
  const row = await kept(
    db
      .insertInto('throttles')
      .values({ key, failures: 1, window_start: now, blocked_until: until(1) })
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
              eb('throttles.blocked_until', '<=', now),
            ]),
          ),
      )
      .returning('failures'),
  ).executeTakeFirst();
  return row?.failures;
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
  const expired = sql<boolean>`throttles.window_start <= cast(${now - windowMs} as bigint)`;
  const next = sql<number>`throttles.failures + 1`;
  const row = await kept(
    db
      .insertInto('throttles')
      .values({
        key,
        failures: 1,
        window_start: now,
        blocked_until: free <= 1 ? now + waitMs : null,
      })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            failures: sql`case when ${expired} then 1 else ${next} end`,
            window_start: sql`case when ${expired} then cast(${now} as bigint) else throttles.window_start end`,
            blocked_until: sql`case
            when ${expired} then cast(${free <= 1 ? now + waitMs : null} as bigint)
            when ${next} >= ${max} then throttles.window_start + cast(${windowMs} as bigint)
            when ${next} >= ${free} then cast(${now + waitMs} as bigint)
            else null end`,
          })
          .where((eb) =>
            eb.or([
              expired,
              eb.and([
                eb.or([
                  eb('throttles.blocked_until', 'is', null),
                  eb('throttles.blocked_until', '<=', now),
                ]),
                eb('throttles.failures', '<', max),
              ]),
            ]),
          ),
      )
      .returning('failures'),
  ).executeTakeFirst();
  return row?.failures;
}

/** Gives back an attempt reserved under `key` (it was not a failure), and lifts the key's wait. */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await kept(
    db
      .updateTable('throttles')
      .set({ failures: sql`throttles.failures - 1`, blocked_until: null })
      .where('key', '=', key)
      .where('failures', '>', 0),
  ).execute();
}
