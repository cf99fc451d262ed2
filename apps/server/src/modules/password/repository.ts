import type { Db } from '../../db/connection.js';

/** When a reset code was last asked for under this key (a name typed, hashed), if ever. */
export async function lastResetRequest(db: Db, key: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('throttles')
    .select('window_start')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.window_start;
}

export async function recordResetRequest(db: Db, key: string, now: number): Promise<void> {
  await db
    .insertInto('throttles')
    .values({ key, failures: 0, window_start: now, blocked_until: null })
    .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: now }))
    .execute();
}
