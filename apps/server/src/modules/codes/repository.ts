import type { Selectable } from 'kysely';
import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import type { OneTimeCodeTable } from '../../db/schema.js';

export type OneTimeCodeRow = Selectable<OneTimeCodeTable>;

/** Send times of an account's codes for a purpose since `since`, newest first (cooldown, cap). */
export function recentSendsOf(db: Db, userId: string, purpose: string, since: number) {
  return sendsOf.all(db, { userId, purpose, since });
}

// The second factor's statements, compiled once per database (`precompiled`).
const sendsOf = precompiled(
  (db: Db, $: Slots<{ userId: string; purpose: string; since: number }>) =>
    db
      .selectFrom('one_time_codes')
      .select('created_at')
      .where('user_id', '=', $('userId'))
      .where('purpose', '=', $('purpose'))
      .where('created_at', '>', $('since'))
      .orderBy('created_at', 'desc'),
);

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
  return newestCode.first(db, { userId, purpose });
}

const newestCode = precompiled((db: Db, $: Slots<{ userId: string; purpose: string }>) =>
  db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('user_id', '=', $('userId'))
    .where('purpose', '=', $('purpose'))
    .orderBy('created_at', 'desc')
    .limit(1),
);

/**
 * The previous live codes of this purpose stop working when a new one is issued: every one but the
 * new (`except`), so this may run before, after or beside that code's insert.
 */
export async function supersedeCodes(
  db: Db,
  userId: string,
  purpose: string,
  now: number,
  except: string,
): Promise<void> {
  await codesSuperseded.run(db, { userId, purpose, now, except });
}

const codesSuperseded = precompiled(
  (db: Db, $: Slots<{ userId: string; purpose: string; now: number; except: string }>) =>
    kept(
      db
        .updateTable('one_time_codes')
        .set({ superseded_at: $('now') })
        .where('user_id', '=', $('userId'))
        .where('purpose', '=', $('purpose'))
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('id', '<>', $('except')),
    ),
);

export async function insertCode(db: Db, code: OneTimeCodeRow): Promise<void> {
  await codeInserted.run(db, code);
}

const codeInserted = precompiled((db: Db, $: Slots<OneTimeCodeRow>) =>
  kept(
    db.insertInto('one_time_codes').values({
      id: $('id'),
      user_id: $('user_id'),
      purpose: $('purpose'),
      destination: $('destination'),
      code_hash: $('code_hash'),
      attempts: $('attempts'),
      created_at: $('created_at'),
      expires_at: $('expires_at'),
      consumed_at: $('consumed_at'),
      superseded_at: $('superseded_at'),
    } satisfies Record<keyof OneTimeCodeRow, unknown>),
  ),
);

/** Consumes a live code: one conditional UPDATE, so only one of concurrent right answers wins. */
export async function consumeCode(
  db: Db,
  id: string,
  now: number,
  maxAttempts: number,
): Promise<boolean> {
  const { numAffectedRows } = await codeConsumed.run(db, { id, now, maxAttempts });
  return numAffectedRows === 1n;
}

const codeConsumed = precompiled(
  (db: Db, $: Slots<{ id: string; now: number; maxAttempts: number }>) =>
    kept(
      db
        .updateTable('one_time_codes')
        .set({ consumed_at: $('now') })
        .where('id', '=', $('id'))
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('attempts', '<', $('maxAttempts')),
    ),
);

/** Counts a wrong answer; the attempts after it, or undefined when the code was used meanwhile. */
export async function countWrongAttempt(db: Db, id: string): Promise<number | undefined> {
  return (await wrongAttemptCounted.first(db, { id }))?.attempts;
}

const wrongAttemptCounted = precompiled((db: Db, $: Slots<{ id: string }>) =>
  kept(
    db
      .updateTable('one_time_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', $('id'))
      .where('consumed_at', 'is', null)
      .returning('attempts'),
  ),
);

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
