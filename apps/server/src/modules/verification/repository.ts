import type { Db } from '../../db/connection.js';

/** A new mobile phone replaces the old one, unverified until its code comes back. */
export async function setUnverifiedPhone(
  db: Db,
  userId: string,
  phone: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ phone, phone_verified_at: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
