import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import type { TrustedDeviceTable } from '../../db/schema.js';

// A sign-in's statements here are compiled once per database (`precompiled`).
const deviceByTokenHash = precompiled((db: Db, $: Slots<{ tokenHash: string }>) =>
  kept(db.selectFrom('trusted_devices').selectAll().where('token_hash', '=', $('tokenHash'))),
);

export function findTrustedDeviceByTokenHash(db: Db, tokenHash: string) {
  return deviceByTokenHash.first(db, { tokenHash });
}

export async function deleteTrustedDevicesOfUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
}

const deviceInserted = precompiled((db: Db, $: Slots<TrustedDeviceTable>) =>
  kept(
    db.insertInto('trusted_devices').values({
      id: $('id'),
      user_id: $('user_id'),
      token_hash: $('token_hash'),
      user_agent: $('user_agent'),
      ip: $('ip'),
      created_at: $('created_at'),
      last_used_at: $('last_used_at'),
      expires_at: $('expires_at'),
    } satisfies Record<keyof TrustedDeviceTable, unknown>),
  ),
);

export async function insertTrustedDevice(db: Db, device: TrustedDeviceTable): Promise<void> {
  await deviceInserted.run(db, device);
}

const deviceTouched = precompiled((db: Db, $: Slots<{ id: string; now: number }>) =>
  kept(
    db
      .updateTable('trusted_devices')
      .set({ last_used_at: $('now') })
      .where('id', '=', $('id')),
  ),
);

export async function touchTrustedDevice(db: Db, id: string, now: number): Promise<void> {
  await deviceTouched.run(db, { id, now });
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

const liveDevicesCounted = precompiled((db: Db, $: Slots<{ userId: string; now: number }>) =>
  kept(
    db
      .selectFrom('trusted_devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', $('userId'))
      .where('expires_at', '>', $('now')),
  ),
);

export async function countLiveTrustedDevices(db: Db, userId: string, now: number) {
  return Number((await liveDevicesCounted.first(db, { userId, now }))?.n ?? 0);
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
