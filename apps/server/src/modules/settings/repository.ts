import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiledByCount } from '../../db/precompiled.js';
import type { SettingTable } from '../../db/schema.js';
import {
  activeKeyId,
  dataKeys,
  isSealed,
  open,
  seal,
  sealedKeyId,
} from '../../security/field-crypto.js';

// Settings that hold a secret the portal must read back (issue 21): the cookie and token secret
// generated when SESSION_SECRET is unset, and the OIDC provider's private signing keys. Their
// value is stored sealed with the data key — a JSON string `"v1.<keyId>.<iv>.<ct>"` whose plain
// text is the setting's JSON — with the setting's name as additional data, so a sealed value
// copied under another name does not open. Callers read and write plain JSON, as for any setting.
export const SEALED_SETTINGS: readonly string[] = ['internal.secret', 'internal.oidc_jwks'];

const isSealedSetting = (key: string) => SEALED_SETTINGS.includes(key);
const settingContext = (key: string) => `settings.value:${key}`;

/** The sealed form of a plain value (unchanged for a setting that is not sealed). */
function sealSetting(key: string, plain: string): string {
  return isSealedSetting(key)
    ? JSON.stringify(seal(dataKeys(), settingContext(key), plain))
    : plain;
}

/** The sealed text inside a stored value, or null for a value stored in clear. */
function sealedText(stored: string): string | null {
  try {
    const parsed: unknown = JSON.parse(stored);
    return typeof parsed === 'string' && isSealed(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The plain value of a stored one. A sealed setting stored in clear (written before sealing
 * existed; sealed at the next start, `sealClearSettings`) reads as it is.
 */
function openSetting(key: string, stored: string): string {
  if (!isSealedSetting(key)) return stored;
  const text = sealedText(stored);
  return text === null ? stored : open(dataKeys(), settingContext(key), text);
}

const settingValues = precompiledByCount((db: Db, $: Slots<readonly string[]>, count) =>
  kept(
    db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where(
        'key',
        'in',
        Array.from({ length: count }, (_, i) => $(i)),
      ),
  ),
);

/** Stored values (JSON text) of the given keys; a key never saved has no row. */
export function findSettingValues(db: Db, keys: readonly string[]) {
  return settingValues(db, keys);
}

/** Inserts or replaces one setting. */
export async function upsertSetting(db: Db, row: SettingTable): Promise<void> {
  const value = sealSetting(row.key, row.value);
  await db
    .insertInto('settings')
    .values({ ...row, value })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ value, updated_by: row.updated_by, updated_at: row.updated_at }),
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
    .values({ ...row, value: sealSetting(row.key, row.value) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await findStoredValue(db, row.key);
  if (stored === undefined) throw new Error(`setting ${row.key} vanished after its insert`);
  return openSetting(row.key, stored);
}

/** The value as stored (sealed or not). */
async function findStoredValue(db: Db, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

/** A setting's value and when it last changed. */
export async function findSettingStamp(db: Db, key: string) {
  const row = await db
    .selectFrom('settings')
    .select(['value', 'updated_at'])
    .where('key', '=', key)
    .executeTakeFirst();
  return row && { value: openSetting(key, row.value), updated_at: row.updated_at };
}

export async function findSettingValue(db: Db, key: string): Promise<string | undefined> {
  const stored = await findStoredValue(db, key);
  return stored === undefined ? undefined : openSetting(key, stored);
}

/**
 * Replaces a setting only if it still holds `expected` (compare-and-swap); true when it did. A
 * sealed setting is compared opened, then written only over the very value read (a sealed value
 * changes with every write), so two writers cannot interleave.
 */
export async function swapSettingValue(
  db: Db,
  key: string,
  expected: string,
  next: string,
  now: number,
): Promise<boolean> {
  let stored = expected;
  if (isSealedSetting(key)) {
    const current = await findStoredValue(db, key);
    if (current === undefined || openSetting(key, current) !== expected) return false;
    stored = current;
  }
  return replaceStoredValue(db, key, stored, sealSetting(key, next), now);
}

async function replaceStoredValue(
  db: Db,
  key: string,
  stored: string,
  next: string,
  now: number | null,
): Promise<boolean> {
  const result = await db
    .updateTable('settings')
    .set(now === null ? { value: next } : { value: next, updated_at: now })
    .where('key', '=', key)
    .where('value', '=', stored)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Where the sealed settings stand: how many values each key id holds (`clear`: not sealed yet). */
export async function sealedSettingsCensus(
  db: Db,
): Promise<{ byKey: Record<string, number>; firstOf: Record<string, string> }> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', SEALED_SETTINGS)
    .orderBy('key')
    .execute();
  const census: { byKey: Record<string, number>; firstOf: Record<string, string> } = {
    byKey: {},
    firstOf: {},
  };
  for (const row of rows) {
    const keyId = sealedKeyId(sealedText(row.value) ?? '');
    census.byKey[keyId] = (census.byKey[keyId] ?? 0) + 1;
    census.firstOf[keyId] ??= `setting ${row.key}`;
  }
  return census;
}

/**
 * Seals with the active data key each sealed setting held in clear (`clear`) or, with `reseal`,
 * under another key (a rotation). The content is unchanged — the same secret, the same signing
 * keys: no session or token is lost. Each write is a compare-and-swap on the value read, and its
 * change date stays (it times the signing-key rotation steps). Returns how many it wrote.
 */
export async function sealSettings(db: Db, options: { reseal: boolean }): Promise<number> {
  const active = activeKeyId(dataKeys());
  let written = 0;
  for (const key of SEALED_SETTINGS) {
    const stored = await findStoredValue(db, key);
    if (stored === undefined) continue;
    const keyId = sealedKeyId(sealedText(stored) ?? '');
    if (keyId === active || (keyId !== 'clear' && !options.reseal)) continue;
    const plain = openSetting(key, stored);
    if (await replaceStoredValue(db, key, stored, sealSetting(key, plain), null)) written += 1;
  }
  return written;
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
