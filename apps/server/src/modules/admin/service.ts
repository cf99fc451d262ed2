import type {
  AdminUser,
  Brand,
  Setting,
  SettingKey,
  userSearchQuerySchema,
  userSearchResultSchema,
} from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { lockUntilCommit } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
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
import type { UserSearchFilters, UserSearchRow } from '../users/service.js';
import {
  activateUser,
  findUserById,
  listUsersPage,
  searchUsersByEmail,
  searchUsersByIdentifier,
  searchUsersByName,
  searchUsersByPhone,
} from '../users/service.js';
import type { SearchCursor, SearchShape } from './search-cursor.js';
import { decodeCursor, encodeCursor, searchShape } from './search-cursor.js';

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
  const { q, status, role, type, pageSize } = query;
  const filters = { status, role, type };
  const shape = searchShape(q);
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, shape);
  // One more than a page tells whether another page follows.
  const limit = pageSize + 1;
  let page: { items: UserSearchRow[]; next: SearchCursor | null };
  switch (shape.kind) {
    case 'created': {
      const after = cursor?.kind === 'created' ? cursor.after : undefined;
      page = keysetPage(await listUsersPage(ctx.db, filters, after, limit), pageSize, (r) => ({
        kind: 'created',
        after: { key: r.created_at, id: r.id },
      }));
      break;
    }
    case 'email':
      page = await emailPage(ctx, shape.email, filters, cursor, pageSize);
      break;
    case 'text': {
      if (cursor?.kind === 'email') {
        page = await emailPage(ctx, shape.email, filters, cursor, pageSize);
        break;
      }
      const after = cursor?.kind === 'name' ? cursor.after : undefined;
      const rows = await searchUsersByName(ctx.db, shape.name, filters, after, limit);
      // A text that is nobody's name may begin an e-mail address (`jdupont`, `j.dupont`).
      page =
        rows.length === 0 && after === undefined
          ? await emailPage(ctx, shape.email, filters, undefined, pageSize)
          : keysetPage(rows, pageSize, (r) => ({
              kind: 'name',
              after: { key: r.search_name ?? '', id: r.id },
            }));
      break;
    }
    case 'identifier':
      page = await identifierPage(ctx, shape, filters, cursor, pageSize);
      break;
  }
  const platformsOf = await platformStandingOfUsers(
    ctx,
    page.items.map((r) => r.id),
  );
  const result: AdminUser[] = page.items.map((r) => ({
    id: r.id,
    name: [r.first_name, r.last_name].filter(Boolean).join(' '),
    email: r.email,
    type: r.profile,
    status: r.status,
    identifier: r.ins ?? r.professional_id,
    createdAt: new Date(r.created_at).toISOString(),
    platforms: platformsOf(r.id),
  }));
  return { items: result, pageSize, nextCursor: page.next && encodeCursor(page.next) };
}

/** The first `pageSize` rows, and the cursor after the last of them when `rows` has one more. */
function keysetPage(
  rows: UserSearchRow[],
  pageSize: number,
  cursorOf: (row: UserSearchRow) => SearchCursor,
): { items: UserSearchRow[]; next: SearchCursor | null } {
  const items = rows.slice(0, pageSize);
  const last = items.at(-1);
  return { items, next: rows.length > pageSize && last ? cursorOf(last) : null };
}

async function emailPage(
  ctx: AppContext,
  prefix: string,
  filters: UserSearchFilters,
  cursor: SearchCursor | undefined,
  pageSize: number,
) {
  const after = cursor?.kind === 'email' ? cursor.after : undefined;
  const rows = await searchUsersByEmail(ctx.db, prefix, filters, after, pageSize + 1);
  return keysetPage(rows, pageSize, (r) => ({
    kind: 'email',
    after: { key: r.email, id: r.id },
  }));
}

/**
 * A phone number or identifier: the accounts holding it as INS or professional identifier (unique,
 * so a handful), all on the first page, then those with it as mobile phone, by id.
 */
async function identifierPage(
  ctx: AppContext,
  shape: Extract<SearchShape, { kind: 'identifier' }>,
  filters: UserSearchFilters,
  cursor: SearchCursor | undefined,
  pageSize: number,
) {
  const exact =
    cursor === undefined ? await searchUsersByIdentifier(ctx.db, shape.compact, filters) : [];
  if (shape.phone === null) return { items: exact, next: null };
  const room = Math.max(pageSize - exact.length, 0);
  const after = cursor?.kind === 'phone' ? cursor.after : undefined;
  const rows = (await searchUsersByPhone(ctx.db, shape.phone, filters, after, room + 1)).filter(
    (r) => !exact.some((e) => e.id === r.id),
  );
  const shown = rows.slice(0, room);
  const last = shown.at(-1);
  const next: SearchCursor | null =
    rows.length > room
      ? { kind: 'phone', after: { key: shape.phone, id: last?.id ?? after?.id ?? '' } }
      : null;
  return { items: [...exact, ...shown], next };
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
  await transaction(ctx.db, async (trx) => {
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
  await transaction(ctx.db, async (trx) => {
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
  await transaction(ctx.db, async (trx) => {
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
