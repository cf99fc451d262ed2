import type { Db } from '../../db/connection.js';
import type { UserRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';

// Sign-in lookups: each one is on a unique index.

export function findUserByLoginEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserByIns(db: Db, ins: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('ins', '=', ins).executeTakeFirst();
}

export function findUserByProfessionalId(
  db: Db,
  type: string,
  value: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('professional_id_type', '=', type)
    .where('professional_id', '=', value)
    .executeTakeFirst();
}

export function findUserByVerifiedPhone(db: Db, phone: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('phone', '=', phone)
    .where('phone_verified_at', 'is not', null)
    .executeTakeFirst();
}

// What completing a sign-in stage writes on the user.

export async function markEmailVerified(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

/** Only the number the code was sent to becomes verified (it may have changed since). */
export async function markPhoneVerified(
  db: Db,
  userId: string,
  phone: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ phone_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('phone', '=', phone)
    .execute();
}

export async function recordConsent(
  db: Db,
  consent: { userId: string; version: string; now: number; ip: string | null },
): Promise<void> {
  await db
    .insertInto('consents')
    .values({
      id: newId(),
      user_id: consent.userId,
      version: consent.version,
      accepted_at: consent.now,
      ip: consent.ip,
    })
    .execute();
  await db
    .updateTable('users')
    .set({ cgu_version: consent.version, updated_at: consent.now })
    .where('id', '=', consent.userId)
    .execute();
}
