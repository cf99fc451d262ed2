import type { Db } from '../../db/connection.js';

/** Replaces the account's recovery codes by a new set (their hashes), in the caller's transaction. */
export async function replaceRecoveryCodes(
  db: Db,
  userId: string,
  hashes: readonly string[],
  now: number,
): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(
      hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now, used_at: null })),
    )
    .execute();
}

/**
 * Marks a recovery code used, only if it is the account's and unused: one conditional update, so
 * of parallel submissions of one code exactly one changes the row (true) and the others none.
 */
export async function claimRecoveryCode(
  db: Db,
  userId: string,
  hash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether `hash` is one of the account's codes, used or not (a used one is told apart). */
export async function recoveryCodeExists(db: Db, userId: string, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('recovery_codes')
    .select('used_at')
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many of the account's codes are unused, and when its set was made (null: none). */
export async function recoveryCodesSummary(
  db: Db,
  userId: string,
): Promise<{ remaining: number; createdAt: number | null }> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => [
      eb.fn.max('created_at').as('created_at'),
      eb.fn.count<number | string>('code_hash').filterWhere('used_at', 'is', null).as('remaining'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const createdAt = row?.created_at ?? null;
  return {
    remaining: Number(row?.remaining ?? 0),
    createdAt: createdAt === null ? null : Number(createdAt),
  };
}
