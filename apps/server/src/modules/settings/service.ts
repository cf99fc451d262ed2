import type { AssuranceMapping, RequiredLevel, Setting, SettingKey } from '@hygie/domain';
import { assuranceMappingSchema, CODES, requiredLevelSchema, SETTING_KEYS } from '@hygie/domain';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { dateIn } from '../../lib/clock.js';
import {
  deleteSetting,
  findSettingChanges,
  findSettingValues,
  sealSettings,
  upsertSetting,
} from './repository.js';

/** Application settings: stored values over defaults (the environment's, or the product's). */
export interface AppSettings {
  /** Password lifetime in seconds; null: passwords never expire (the default). */
  PASSWORD_EXPIRATION_DELAY: number | null;
  /** Trusted-device lifetime, days. */
  TRUSTED_DEVICE_DAYS: number;
  SESSION_IDLE_TIMEOUT: number;
  SESSION_ABSOLUTE_TIMEOUT: number;
  /** One-time code lifetime, seconds. */
  CODE_TTL: number;
  /** Seconds an audit event is kept; the maintenance job deletes older ones. */
  AUDIT_RETENTION: number;
  /** The terms version users must have accepted (published with `npm run cgu:publish` or the admin area). */
  CGU_VERSION: string;
  CGU_PUBLISHED_AT: string;
  /**
   * A version published with a future effective date, and that date (YYYY-MM-DD): it replaces
   * CGU_VERSION / CGU_PUBLISHED_AT from that day on. Null when none is scheduled.
   */
  CGU_NEXT_VERSION: string | null;
  CGU_NEXT_AT: string | null;
  /** The level the account area needs (docs/oidc.md); null: none (the default). */
  ACCOUNT_MINIMUM_LEVEL: RequiredLevel | null;
  /** The operator's mapping of recorded methods to levels; null: the portal's default. */
  ASSURANCE_MAPPING: AssuranceMapping | null;
}

interface Bounds {
  unit: 'seconds' | 'days';
  min: number;
  max: number;
  nullable: boolean;
}

const DAY = 24 * 3600;
/** What an admin may set, within which bounds (admin settings screen). */
export const SETTING_BOUNDS: Record<SettingKey, Bounds> = {
  PASSWORD_EXPIRATION_DELAY: { unit: 'seconds', min: 3600, max: 10 * 365 * DAY, nullable: true },
  TRUSTED_DEVICE_DAYS: { unit: 'days', min: 1, max: 365, nullable: false },
  SESSION_IDLE_TIMEOUT: { unit: 'seconds', min: 5 * 60, max: DAY, nullable: false },
  SESSION_ABSOLUTE_TIMEOUT: { unit: 'seconds', min: 15 * 60, max: 30 * DAY, nullable: false },
  CODE_TTL: { unit: 'seconds', min: 60, max: 3600, nullable: false },
  AUDIT_RETENTION: { unit: 'seconds', min: 30 * DAY, max: 10 * 365 * DAY, nullable: false },
};

/** The defaults: the environment's session timeouts, the product's other values. */
export function defaultSettings(config: Pick<Config, 'session'>): AppSettings {
  return {
    PASSWORD_EXPIRATION_DELAY: null,
    TRUSTED_DEVICE_DAYS: 30,
    SESSION_IDLE_TIMEOUT: config.session.idleSeconds,
    SESSION_ABSOLUTE_TIMEOUT: config.session.absoluteSeconds,
    CODE_TTL: CODES.ttlSeconds,
    AUDIT_RETENTION: 365 * DAY,
    CGU_VERSION: '2026-01',
    CGU_PUBLISHED_AT: '2026-01-01',
    CGU_NEXT_VERSION: null,
    CGU_NEXT_AT: null,
    ACCOUNT_MINIMUM_LEVEL: null,
    ASSURANCE_MAPPING: null,
  };
}

/** What a stored value must be to apply; a damaged one (not JSON, another type) keeps its default. */
const STORED_VALUE: { [K in keyof AppSettings]: z.ZodType<AppSettings[K]> } = {
  PASSWORD_EXPIRATION_DELAY: z.number().nullable(),
  TRUSTED_DEVICE_DAYS: z.number(),
  SESSION_IDLE_TIMEOUT: z.number(),
  SESSION_ABSOLUTE_TIMEOUT: z.number(),
  CODE_TTL: z.number(),
  AUDIT_RETENTION: z.number(),
  CGU_VERSION: z.string(),
  CGU_PUBLISHED_AT: z.string(),
  CGU_NEXT_VERSION: z.string().min(1).nullable(),
  CGU_NEXT_AT: z.iso.date().nullable(),
  ACCOUNT_MINIMUM_LEVEL: requiredLevelSchema.nullable(),
  ASSURANCE_MAPPING: assuranceMappingSchema.nullable(),
};

function isSettingName(key: string): key is keyof AppSettings {
  return Object.prototype.hasOwnProperty.call(STORED_VALUE, key);
}

const ALL_KEYS = Object.keys(STORED_VALUE);

/** Sets `key` to its stored value when that value is of the setting's type. */
function applyStored<K extends keyof AppSettings>(settings: AppSettings, key: K, stored: string) {
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return;
  }
  const parsed = STORED_VALUE[key].safeParse(value);
  if (parsed.success) settings[key] = parsed.data;
}

/**
 * The terms in force on `today` (YYYY-MM-DD): a scheduled version whose date has come is the one
 * in force (CGU_VERSION, CGU_PUBLISHED_AT), and none is scheduled any more; otherwise unchanged.
 */
export function termsInForceOn(settings: AppSettings, today: string): AppSettings {
  const { CGU_NEXT_VERSION: next, CGU_NEXT_AT: at } = settings;
  if (next === null || at === null || at > today) return settings;
  return {
    ...settings,
    CGU_VERSION: next,
    CGU_PUBLISHED_AT: at,
    CGU_NEXT_VERSION: null,
    CGU_NEXT_AT: null,
  };
}

/** Today's date, YYYY-MM-DD, in the service's time zone (TIME_ZONE): the day terms take effect. */
export function todayIn(ctx: Pick<AppContext, 'config' | 'clock'>): string {
  return dateIn(ctx.clock.now(), ctx.config.timeZone);
}

/**
 * The settings in force. Read where they are used (sign-in, the once-a-minute session slide), never
 * on the per-request hot path, so a change applies on every node without a cache to invalidate.
 * A terms version scheduled for a date that has come reads as the one in force (`termsInForceOn`).
 */
export async function loadSettings(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  db: Db = ctx.db,
): Promise<AppSettings> {
  const rows = await findSettingValues(db, ALL_KEYS);
  const settings = defaultSettings(ctx.config);
  for (const row of rows) {
    if (isSettingName(row.key)) applyStored(settings, row.key, row.value);
  }
  return termsInForceOn(settings, todayIn(ctx));
}

export async function saveSetting<K extends keyof AppSettings>(
  db: Db,
  key: K,
  value: AppSettings[K],
  by: string | null,
  now: number,
): Promise<void> {
  await upsertSetting(db, { key, value: JSON.stringify(value), updated_by: by, updated_at: now });
}

export async function resetSetting(db: Db, key: keyof AppSettings): Promise<void> {
  await deleteSetting(db, key);
}

/** The admin view of every editable setting. */
export async function listSettings(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
): Promise<Setting[]> {
  const rows = await findSettingChanges(ctx.db, SETTING_KEYS);
  const current = await loadSettings(ctx);
  const defaults = defaultSettings(ctx.config);
  return SETTING_KEYS.map((key) => {
    const row = rows.find((r) => r.key === key);
    return {
      key,
      value: current[key],
      defaultValue: defaults[key],
      ...SETTING_BOUNDS[key],
      updatedAt: row ? new Date(row.updated_at).toISOString() : null,
      updatedBy: row?.email ?? null,
    };
  });
}

// The server secret is stored once, by the first node to start (bootstrap). It and the OIDC
// signing keys are sealed with the data key by the repository (issue 21): read and written plain.
export {
  deleteSettingIfValue,
  findSettingKeysWithPrefix,
  findSettingStamp,
  findSettingValue,
  insertSettingOnce,
  sealedSettingsCensus,
  swapSettingValue,
} from './repository.js';

/**
 * Seals the secret settings an upgraded installation holds in clear, content unchanged (start-up;
 * any node may run it at the same time). Returns how many it sealed.
 */
export function sealClearSettings(db: Db): Promise<number> {
  return sealSettings(db, { reseal: false });
}

/** Re-seals with the active data key the secret settings sealed under another one (rotation). */
export function resealSettings(db: Db): Promise<number> {
  return sealSettings(db, { reseal: true });
}
