import type { Db } from '../../db/connection.js';

/**
 * Ends every session and forgets every trusted device of a user (password change, reset, lock).
 * A session kept (the one changing the password) stays open but no longer on a trusted device.
 */
export async function revokeAccess(
  db: Db,
  userId: string,
  exceptSessionId?: string,
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(exceptSessionId !== undefined, (qb) => qb.where('id', '!=', exceptSessionId ?? ''))
    .execute();
  if (exceptSessionId !== undefined) {
    await db
      .updateTable('sessions')
      .set({ trusted_device_id: null })
      .where('id', '=', exceptSessionId)
      .execute();
  }
  await db.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
}

export async function setPassword(
  db: Db,
  userId: string,
  passwordHash: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      password_changed_at: now,
      must_create_password: 0,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}
