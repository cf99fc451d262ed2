import type {
  AdminUser,
  Brand,
  Setting,
  SettingKey,
  userSearchQuerySchema,
  userSearchResultSchema,
} from '@hygie/domain';
import { normalizeMobilePhone } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { lockUntilCommit } from '../../db/connection.js';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { eraseAccount } from '../account/service.js';
import { recordAudit } from '../audit/service.js';
import { platformStandingOfUsers } from '../platforms/service.js';
import type { AppSettings } from '../settings/service.js';
import {
  defaultSettings,
  listSettings,
  loadSettings,
  resetSetting,
  saveSetting,
  SETTING_BOUNDS,
} from '../settings/service.js';
import { activateUser, findUserById, searchUsers } from '../users/service.js';
import { normalizeSearch } from '../users/search-key.js';

/** The admin acting, for the audit trail. */
export interface AdminActor {
  userId: string;
  ip: string | null;
}

type UserSearchQuery = z.infer<typeof userSearchQuerySchema>;
type UserSearchResult = z.infer<typeof userSearchResultSchema>;

// ---- users ----

/** Users by name, e-mail, phone or identifier, filtered, keyset pages, with their platform access. */
export async function findUsers(
  ctx: AppContext,
  query: UserSearchQuery,
): Promise<UserSearchResult> {
  const { q, status, role, type, cursor, pageSize } = query;
  const [createdAt, id] = cursor?.split('.') ?? [];
  const rows = await searchUsers(ctx.db, {
    term: normalizeSearch(q),
    compact: q.replace(/\s+/g, ''),
    phone: /^[+\d][\d\s.]{5,}$/.test(q) ? normalizeMobilePhone(q) : null,
    status,
    role,
    type,
    after: createdAt && id ? { createdAt: Number(createdAt), id } : undefined,
    // One more than a page tells whether another page follows.
    limit: pageSize + 1,
  });
  const items = rows.slice(0, pageSize);
  const last = items.at(-1);
  const platformsOf = await platformStandingOfUsers(
    ctx,
    items.map((r) => r.id),
  );
  const result: AdminUser[] = items.map((r) => ({
    id: r.id,
    name: [r.first_name, r.last_name].filter(Boolean).join(' '),
    email: r.email,
    type: r.profile,
    status: r.status,
    identifier: r.ins ?? r.professional_id,
    createdAt: new Date(r.created_at).toISOString(),
    platforms: platformsOf(r.id),
  }));
  return {
    items: result,
    pageSize,
    nextCursor: rows.length > pageSize && last ? `${last.created_at}.${last.id}` : null,
  };
}

/**
 * Validates or rejects a pending professional account (its identity is checked by an admin before
 * the first sign-in) and tells the person by e-mail, in one transaction.
 */
export async function decideAccount(
  ctx: AppContext,
  userId: string,
  decision: 'validate' | 'reject',
  actor: AdminActor & { brand: Brand },
): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user || user.status !== 'pending_validation') throw new AppError('not_found');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (decision === 'reject') {
      // A sign-up whose identity could not be verified leaves no account behind (and so nothing
      // an "unlock" could reopen), by the one erasure rule: the e-mail and the trail remain, the
      // trail without the addresses and browsers the person left.
      await eraseAccount(ctx, trx, user, {
        actorId: actor.userId,
        ip: actor.ip,
        brand: actor.brand,
        reason: 'rejected',
      });
      return;
    }
    await activateUser(trx, user.id, now);
    await enqueueMessage(trx, ctx.clock, {
      channel: 'email',
      recipient: user.email,
      template: 'account_validated',
      language: user.language,
      brand: actor.brand,
      params: {
        loginUrl: new URL('/security/login', ctx.config.publicUrl).href,
        contactEmail: ctx.config.contactEmail,
      },
    });
    await recordAudit(trx, ctx.clock, {
      action: 'account_validated',
      actorId: actor.userId,
      targetId: user.id,
      ip: actor.ip,
    });
  });
}

// ---- settings ----

/** The admin view of one setting, as it is now. */
async function settingView(ctx: AppContext, key: SettingKey, failure: 'load' | 'reset') {
  const setting = (await listSettings(ctx)).find((s) => s.key === key);
  if (!setting) {
    throw new AppError(failure === 'load' ? 'settings_load_failed' : 'settings_reset_failed');
  }
  return setting;
}

const SETTINGS_LOCK = 'settings';

/** The idle session time-out never exceeds the absolute one: judged on the settings after a change. */
function assertSessionTimeouts(
  after: AppSettings,
  key: SettingKey,
  code: 'settings_update_failed' | 'settings_reset_failed',
): void {
  if (after.SESSION_IDLE_TIMEOUT <= after.SESSION_ABSOLUTE_TIMEOUT) return;
  if (code === 'settings_reset_failed') throw new AppError(code);
  if (key === 'SESSION_IDLE_TIMEOUT') {
    throw new AppError(code, { key, max: after.SESSION_ABSOLUTE_TIMEOUT });
  }
  throw new AppError(code, { key, min: after.SESSION_IDLE_TIMEOUT });
}

/**
 * Changes a setting within its bounds (null only where it disables the rule); the idle timeout
 * never exceeds the absolute one. Audited with the old and new values.
 */
export async function changeSetting(
  ctx: AppContext,
  key: SettingKey,
  value: number | null,
  actor: AdminActor,
): Promise<Setting> {
  const bounds = SETTING_BOUNDS[key];
  if (value === null ? !bounds.nullable : value < bounds.min || value > bounds.max) {
    throw new AppError('settings_update_failed', {
      key,
      min: bounds.min,
      max: bounds.max,
      nullable: bounds.nullable,
    });
  }
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    // Settings that constrain each other are read and written under one lock, so two changes at
    // once are judged one after the other, each on the values the other left.
    await lockUntilCommit(trx, SETTINGS_LOCK);
    const before = await loadSettings(ctx, trx);
    assertSessionTimeouts({ ...before, [key]: value }, key, 'settings_update_failed');
    await saveSetting(trx, key, value, actor.userId, now);
    await recordAudit(trx, ctx.clock, {
      action: 'setting_changed',
      actorId: actor.userId,
      ip: actor.ip,
      details: { key, old: before[key], new: value },
    });
  });
  return settingView(ctx, key, 'load');
}

/** Resets a setting to its default. Audited with the old value. */
export async function resetSettingToDefault(
  ctx: AppContext,
  key: SettingKey,
  actor: AdminActor,
): Promise<Setting> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockUntilCommit(trx, SETTINGS_LOCK);
    const before = await loadSettings(ctx, trx);
    const defaults = defaultSettings(ctx.config);
    assertSessionTimeouts({ ...before, [key]: defaults[key] }, key, 'settings_reset_failed');
    await resetSetting(trx, key);
    await recordAudit(trx, ctx.clock, {
      action: 'setting_reset',
      actorId: actor.userId,
      ip: actor.ip,
      details: { key, old: before[key] },
    });
  });
  return settingView(ctx, key, 'reset');
}
