import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { TrustedDeviceTable } from '../../db/schema.js';

export function findTrustedDeviceByTokenHash(db: Db, tokenHash: string) {
  return kept(
    db.selectFrom('trusted_devices').selectAll().where('token_hash', '=', tokenHash),
  ).executeTakeFirst();
}

export async function deleteTrustedDevicesOfUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
}

export async function insertTrustedDevice(db: Db, device: TrustedDeviceTable): Promise<void> {
  await kept(db.insertInto('trusted_devices').values(device)).execute();
}

export async function touchTrustedDevice(db: Db, id: string, now: number): Promise<void> {
  await kept(
    db.updateTable('trusted_devices').set({ last_used_at: now }).where('id', '=', id),
  ).execute();
}

/** A user's unexpired trusted devices, most recently used first. */
export function listLiveTrustedDevices(db: Db, userId: string, now: number) {
  return db
    .selectFrom('trusted_devices')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .execute();
}

export async function countLiveTrustedDevices(db: Db, userId: string, now: number) {
  const row = await kept(
    db
      .selectFrom('trusted_devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('expires_at', '>', now),
  ).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes one device only when it is this user's; returns how many rows went (0 or 1). */
export async function deleteTrustedDeviceOfUser(
  db: Db,
  id: string,
  userId: string,
): Promise<number> {
  const deleted = await db
    .deleteFrom('trusted_devices')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** Retention: trusted browsers past their expiry go; returns how many. */
export async function deleteExpiredTrustedDevices(db: Db, now: number): Promise<number> {
  const result = await db
    .deleteFrom('trusted_devices')
    .where('expires_at', '<', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every trusted device row of a user, expired ones awaiting purge included, without its token. */
export function trustedDevicesOfUser(db: Db, userId: string) {
  return db
    .selectFrom('trusted_devices')
    .select(['id', 'user_agent', 'ip', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}
