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
