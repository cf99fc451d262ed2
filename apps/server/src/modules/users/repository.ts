import type { Db } from '../../db/connection.js';
import type { ConsentTable, NewUser, UserRow } from '../../db/schema.js';

/** Finds a user by normalised e-mail (unique index). */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Finds a user by E.164 phone number (indexed). */
export function findUserByPhone(db: Db, phone: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function updatePasswordHash(
  db: Db,
  id: string,
  passwordHash: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function insertConsent(db: Db, consent: ConsentTable): Promise<void> {
  await db.insertInto('consents').values(consent).execute();
}

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
