import type { Db } from '../../db/connection.js';
import type { UserUpdate } from '../../db/schema.js';

/** Writes edited person fields (the service decides which ones a profile may change). */
export async function updatePersonFields(db: Db, userId: string, changes: UserUpdate) {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/** Remembers the address or number waiting for its code (the current one stays in force). */
export async function setPendingContact(
  db: Db,
  userId: string,
  pending: { pending_email: string } | { pending_phone: string },
) {
  await db.updateTable('users').set(pending).where('id', '=', userId).execute();
}

/** The new e-mail replaces the old one, verified by its code. */
export async function confirmEmail(db: Db, userId: string, email: string, now: number) {
  await db
    .updateTable('users')
    .set({ email, email_verified_at: now, pending_email: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** The new mobile phone replaces the old one, verified by its SMS code. */
export async function confirmPhone(db: Db, userId: string, phone: string, now: number) {
  await db
    .updateTable('users')
    .set({ phone, phone_verified_at: now, pending_phone: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
