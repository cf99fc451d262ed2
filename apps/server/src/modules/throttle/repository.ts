import type { Db } from '../../db/connection.js';

export function findThrottle(db: Db, key: string) {
  return db
    .selectFrom('throttles')
    .select(['failures', 'blocked_until'])
    .where('key', '=', key)
    .executeTakeFirst();
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
  await db.deleteFrom('throttles').where('key', '=', key).execute();
}

/** When the key's window started (a cooldown's last request), if it has one. */
export async function findWindowStart(db: Db, key: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('throttles')
    .select('window_start')
    .where('key', '=', key)
    .executeTakeFirst();
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
  const claimed = await db
    .insertInto('throttles')
    .values({ key, failures: 0, window_start: now, blocked_until: null })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ window_start: now })
        .where('throttles.window_start', '<=', cutoff),
    )
    .returning('window_start')
    .executeTakeFirst();
  return claimed !== undefined;
}
