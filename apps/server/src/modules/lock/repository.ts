import type { Db } from '../../db/connection.js';

/** Locks the account: sign-ins answer account_locked until an admin unlocks it. */
export async function lockUser(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ status: 'locked', updated_at: now })
    .where('id', '=', userId)
    .execute();
}
