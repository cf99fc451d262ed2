import type { Db } from '../../db/connection.js';
import type { SettingTable } from '../../db/schema.js';

/** Stored values (JSON text) of the given keys; a key never saved has no row. */
export function findSettingValues(db: Db, keys: readonly string[]) {
  return db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).execute();
}

/** Inserts or replaces one setting. */
export async function upsertSetting(db: Db, row: SettingTable): Promise<void> {
  await db
    .insertInto('settings')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ value: row.value, updated_by: row.updated_by, updated_at: row.updated_at }),
    )
    .execute();
}

export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', key).execute();
}

/** When each saved key changed, and the e-mail of the admin who changed it. */
export function findSettingChanges(db: Db, keys: readonly string[]) {
  return db
    .selectFrom('settings')
    .leftJoin('users', 'users.id', 'settings.updated_by')
    .select(['settings.key', 'settings.updated_at', 'users.email'])
    .where('settings.key', 'in', keys)
    .execute();
}

/** Stores a setting unless it exists, then returns the stored value (the first writer's). */
export async function insertSettingOnce(db: Db, row: SettingTable): Promise<string> {
  await db
    .insertInto('settings')
    .values(row)
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', row.key)
    .executeTakeFirstOrThrow();
  return stored.value;
}

/** A setting's stored value and when it last changed. */
export function findSettingStamp(db: Db, key: string) {
  return db
    .selectFrom('settings')
    .select(['value', 'updated_at'])
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function findSettingValue(db: Db, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

/** Replaces a setting only if it still holds `expected` (compare-and-swap); true when it did. */
export async function swapSettingValue(
  db: Db,
  key: string,
  expected: string,
  next: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('settings')
    .set({ value: next, updated_at: now })
    .where('key', '=', key)
    .where('value', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The keys of the settings whose key starts with `prefix` (internal bookkeeping, not admin settings). */
export async function findSettingKeysWithPrefix(db: Db, prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom('settings')
    .select('key')
    // `_` and `%` in the prefix match more than themselves in LIKE: the filter below drops those.
    .where('key', 'like', `${prefix}%`)
    .orderBy('key')
    .execute();
  return rows.map((row) => row.key).filter((key) => key.startsWith(prefix));
}

/** Deletes a setting only if it still holds `expected`; true when it did. */
export async function deleteSettingIfValue(
  db: Db,
  key: string,
  expected: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('settings')
    .where('key', '=', key)
    .where('value', '=', expected)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
