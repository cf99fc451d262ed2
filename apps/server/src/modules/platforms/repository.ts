import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import type { PlatformRow } from './types.js';

// The statements of each OpenID Connect exchange and landing, compiled once per database
// (`precompiled`).
const platformByClientId = precompiled((db: Db, $: Slots<{ clientId: string }>) =>
  kept(db.selectFrom('platforms').selectAll().where('client_id', '=', $('clientId'))),
);
const accessStatus = precompiled((db: Db, $: Slots<{ userId: string; platformId: string }>) =>
  kept(
    db
      .selectFrom('platform_access')
      .select('status')
      .where('user_id', '=', $('userId'))
      .where('platform_id', '=', $('platformId')),
  ),
);
const accessRows = precompiled((db: Db, $: Slots<{ userId: string }>) =>
  kept(
    db
      .selectFrom('platform_access')
      .select(['platform_id', 'status'])
      .where('user_id', '=', $('userId')),
  ),
);

export function findPlatformByClientId(db: Db, clientId: string): Promise<PlatformRow | undefined> {
  return platformByClientId.first(db, { clientId });
}

export function findPlatformById(db: Db, id: string): Promise<PlatformRow | undefined> {
  return db.selectFrom('platforms').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listPlatforms(db: Db): Promise<PlatformRow[]> {
  return db.selectFrom('platforms').selectAll().orderBy('name').execute();
}

/** The user's access row for a platform (primary key lookup), if any. */
export async function accessOf(db: Db, userId: string, platformId: string) {
  const row = await accessStatus.first(db, { userId, platformId });
  return row?.status ?? null;
}

/** Sets a user's access to a platform (insert or update). */
export async function setAccess(
  db: Db,
  userId: string,
  platformId: string,
  status: 'enabled' | 'disabled' | 'requested',
  by: string | null,
  now: number,
): Promise<void> {
  await db
    .insertInto('platform_access')
    .values({ user_id: userId, platform_id: platformId, status, changed_by: by, changed_at: now })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'platform_id'])
        .doUpdateSet({ status, changed_by: by, changed_at: now }),
    )
    .execute();
}

export async function insertPlatform(db: Db, row: PlatformRow): Promise<void> {
  await db.insertInto('platforms').values(row).execute();
}

export async function updatePlatformRow(
  db: Db,
  id: string,
  changes: Partial<Omit<PlatformRow, 'id' | 'client_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('platforms').set(changes).where('id', '=', id).execute();
}

export async function deletePlatformRow(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('platforms').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every access row of a user (the primary key's leading column). */
export function accessRowsOfUser(db: Db, userId: string) {
  return accessRows.all(db, { userId });
}

/** The access rows of several users (the primary key's leading column). */
export function accessRowsOfUsers(db: Db, userIds: string[]) {
  return db
    .selectFrom('platform_access')
    .select(['user_id', 'platform_id', 'status'])
    .where('user_id', 'in', userIds)
    .execute();
}

/** A user's access rows with the platform's name (the data export). */
export function accessRowsWithNamesOfUser(db: Db, userId: string) {
  return db
    .selectFrom('platform_access')
    .innerJoin('platforms', 'platforms.id', 'platform_access.platform_id')
    .select([
      'platform_access.platform_id',
      'platforms.name',
      'platform_access.status',
      'platform_access.changed_at',
    ])
    .where('platform_access.user_id', '=', userId)
    .orderBy('platform_access.changed_at', 'desc')
    .execute();
}
