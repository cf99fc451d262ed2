import type { Db } from '../../db/connection.js';

/** Application settings an admin edits (issue "admin settings"); defaults apply until then. */
export interface AppSettings {
  /** Password lifetime in seconds; null: passwords never expire (the default). */
  PASSWORD_EXPIRATION_DELAY: number | null;
  /** The terms version users must have accepted. */
  CGU_VERSION: string;
  CGU_PUBLISHED_AT: string;
  /** Trusted-device lifetime, days. */
  TRUSTED_DEVICE_DAYS: number;
}

export const DEFAULT_SETTINGS: AppSettings = {
  PASSWORD_EXPIRATION_DELAY: null,
  CGU_VERSION: '2026-01',
  CGU_PUBLISHED_AT: '2026-01-01',
  TRUSTED_DEVICE_DAYS: 30,
};

const KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof AppSettings)[];

/** The current settings (stored values over defaults). Read at sign-in, not on the hot path. */
export async function loadSettings(db: Db): Promise<AppSettings> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', KEYS)
    .execute();
  const settings: AppSettings = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    try {
      (settings as unknown as Record<string, unknown>)[row.key] = JSON.parse(row.value) as unknown;
    } catch {
      // a damaged value falls back to its default
    }
  }
  return settings;
}

export async function saveSetting<K extends keyof AppSettings>(
  db: Db,
  key: K,
  value: AppSettings[K],
  by: string | null,
  now: number,
): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value), updated_by: by, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ value: JSON.stringify(value), updated_by: by, updated_at: now }),
    )
    .execute();
}
