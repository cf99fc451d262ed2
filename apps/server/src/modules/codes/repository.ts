import type { Selectable } from 'kysely';
import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { OneTimeCodeTable } from '../../db/schema.js';

export type OneTimeCodeRow = Selectable<OneTimeCodeTable>;

/** Send times of an account's codes for a purpose since `since`, newest first (cooldown, cap). */
export function recentSendsOf(db: Db, userId: string, purpose: string, since: number) {
  return db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Send times of the codes of these purposes to a destination since `since`, newest first. */
export function recentSendsTo(
  db: Db,
  destination: string,
  purposes: readonly string[],
  since: number,
) {
  return db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('destination', '=', destination)
    .where('created_at', '>', since)
    .where('purpose', 'in', purposes)
    .orderBy('created_at', 'desc')
    .execute();
}

/** The newest code of a user for a purpose, used or not. */
export function latestCode(
  db: Db,
  userId: string,
  purpose: string,
): Promise<OneTimeCodeRow | undefined> {
  return db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The previous live code of this purpose stops working when a new one is issued. */
export async function supersedeCodes(
  db: Db,
  userId: string,
  purpose: string,
  now: number,
): Promise<void> {
  await kept(
    db
      .updateTable('one_time_codes')
      .set({ superseded_at: now })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('superseded_at', 'is', null),
  ).execute();
}

export async function insertCode(db: Db, code: OneTimeCodeRow): Promise<void> {
  await kept(db.insertInto('one_time_codes').values(code)).execute();
}

/** Consumes a live code: one conditional UPDATE, so only one of concurrent right answers wins. */
export async function consumeCode(
  db: Db,
  id: string,
  now: number,
  maxAttempts: number,
): Promise<boolean> {
  const consumed = await kept(
    db
      .updateTable('one_time_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('superseded_at', 'is', null)
      .where('attempts', '<', maxAttempts),
  ).executeTakeFirst();
  return Number(consumed.numUpdatedRows) === 1;
}

/** Counts a wrong answer; the attempts after it, or undefined when the code was used meanwhile. */
export async function countWrongAttempt(db: Db, id: string): Promise<number | undefined> {
  const counted = await kept(
    db
      .updateTable('one_time_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .returning('attempts'),
  ).executeTakeFirst();
  return counted?.attempts;
}

/** Every live code of a user (of the given purposes, or all) stops working. */
export async function supersedeCodesOfUser(
  db: Db,
  userId: string,
  purposes: readonly string[] | undefined,
  now: number,
): Promise<void> {
  await db
    .updateTable('one_time_codes')
    .set({ superseded_at: now })
    .where('user_id', '=', userId)
    .$if(purposes !== undefined, (qb) => qb.where('purpose', 'in', purposes ?? []))
    .where('consumed_at', 'is', null)
    .where('superseded_at', 'is', null)
    .execute();
}

/** Retention: codes that expired before `before` go (recent ones still count for send limits). */
export async function deleteCodesExpiredBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('one_time_codes')
    .where('expires_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every code row of a user not yet purged, without the code (the data export). */
export function codesOfUser(db: Db, userId: string) {
  return db
    .selectFrom('one_time_codes')
    .select([
      'id',
      'purpose',
      'destination',
      'attempts',
      'created_at',
      'expires_at',
      'consumed_at',
      'superseded_at',
    ])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}
