import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import type { SessionMeta } from '../sessions/service.js';
import type { TrustedDevice } from '@hygie/domain';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import {
  countLiveTrustedDevices,
  deleteTrustedDeviceOfUser,
  findTrustedDeviceByTokenHash,
  insertTrustedDevice,
  listLiveTrustedDevices,
  touchTrustedDevice,
} from './repository.js';

/**
 * "Don't ask again on this device": a record (userAgent, ip, creationDate, lastUsed, expiry) and a
 * device cookie holding a random token whose hash names the record. Only that browser skips the
 * second factor, only for that user, until expiry or revocation. Audited in the caller's transaction.
 */
export async function trustDevice(
  ctx: AppContext,
  db: Db,
  userId: string,
  meta: SessionMeta,
  days: number,
): Promise<{ id: string; token: string; expiresAt: number }> {
  const now = ctx.clock.now();
  const token = randomToken();
  const id = newId();
  const expiresAt = now + days * 24 * 60 * 60_000;
  await insertTrustedDevice(db, {
    id,
    user_id: userId,
    token_hash: hashToken(token),
    user_agent: meta.userAgent?.slice(0, 512) ?? null,
    ip: meta.ip,
    created_at: now,
    last_used_at: now,
    expires_at: expiresAt,
  });
  await recordAudit(db, ctx.clock, {
    action: 'trusted_device_added',
    actorId: userId,
    targetId: userId,
    ip: meta.ip,
    details: { deviceId: id, days },
  });
  return { id, token, expiresAt };
}

/** The trusted-device id when the cookie's token is a live record of this user, else null. */
export async function recognisedDevice(
  ctx: AppContext,
  userId: string,
  token: string | undefined,
): Promise<string | null> {
  const id = await trustedDeviceOf(ctx, userId, token);
  if (id !== null) await markDeviceUsed(ctx, ctx.db, id);
  return id;
}

/** Like recognisedDevice, without recording the use: a read only (mark it with markDeviceUsed). */
export async function trustedDeviceOf(
  ctx: AppContext,
  userId: string,
  token: string | undefined,
  db: Db = ctx.db,
): Promise<string | null> {
  return (await presentedDevice(ctx, token, db)).trustedFor(userId);
}

/** The browser a trust cookie names, looked up before the account it must be one of is known. */
export interface PresentedDevice {
  /** Its id when it is a live trusted browser of `userId`, else null. */
  trustedFor(userId: string): string | null;
}

/**
 * The trusted browser the cookie's token names (one read by its hash's unique index), to be
 * matched to an account afterwards: a sign-in reads it beside the account (trustedDeviceOf).
 */
export async function presentedDevice(
  ctx: AppContext,
  token: string | undefined,
  db: Db = ctx.db,
): Promise<PresentedDevice> {
  const device = token ? await findTrustedDeviceByTokenHash(db, hashToken(token)) : undefined;
  return {
    trustedFor: (userId) =>
      device && device.user_id === userId && ctx.clock.now() < device.expires_at ? device.id : null,
  };
}

/** Records that a trusted device was just used (in the caller's transaction when `db` is one). */
export async function markDeviceUsed(ctx: AppContext, db: Db, deviceId: string): Promise<void> {
  await touchTrustedDevice(db, deviceId, ctx.clock.now());
}

/** How many unexpired trusted devices the user has (the dashboard shows it). */
export function countTrustedDevices(
  ctx: AppContext,
  userId: string,
  db: Db = ctx.db,
): Promise<number> {
  return countLiveTrustedDevices(db, userId, ctx.clock.now());
}

/** A user's unexpired trusted devices, as an admin sees them. */
export async function trustedDevicesOf(ctx: AppContext, userId: string) {
  const rows = await listLiveTrustedDevices(ctx.db, userId, ctx.clock.now());
  return rows.map((d) => ({
    id: d.id,
    label: describeUserAgent(d.user_agent),
    ip: d.ip,
    createdAt: new Date(d.created_at).toISOString(),
    lastUsed: new Date(d.last_used_at).toISOString(),
    expiresAt: new Date(d.expires_at).toISOString(),
  }));
}

/**
 * My unexpired trusted devices; `current` marks this browser's (by its device cookie, or the
 * device the session was trusted on).
 */
export async function listMyDevices(
  ctx: AppContext,
  session: { userId: string; trustedDeviceId: string | null },
  deviceToken: string | undefined,
): Promise<TrustedDevice[]> {
  const rows = await listLiveTrustedDevices(ctx.db, session.userId, ctx.clock.now());
  const cookieHash = deviceToken ? hashToken(deviceToken) : null;
  return rows.map((d) => ({
    id: d.id,
    userAgent: d.user_agent,
    label: describeUserAgent(d.user_agent),
    ip: d.ip,
    creationDate: new Date(d.created_at).toISOString(),
    lastUsed: new Date(d.last_used_at).toISOString(),
    expiresAt: new Date(d.expires_at).toISOString(),
    current: d.token_hash === cookieHash || d.id === session.trustedDeviceId,
  }));
}

/** Forgets one of my trusted devices; another user's id is not_found (no hint that it exists). */
export async function forgetMyDevice(
  ctx: AppContext,
  userId: string,
  deviceId: string,
  ip: string | null,
): Promise<void> {
  const deleted = await transaction(ctx.db, async (trx) => {
    const count = await deleteTrustedDeviceOfUser(trx, deviceId, userId);
    if (count === 1) {
      await recordAudit(trx, ctx.clock, {
        action: 'trusted_device_revoked',
        actorId: userId,
        targetId: userId,
        ip,
        details: { deviceId },
      });
    }
    return count;
  });
  if (deleted !== 1) throw new AppError('not_found');
}

export { deleteTrustedDevicesOfUser as forgetTrustedDevices } from './repository.js';

export { deleteExpiredTrustedDevices } from './repository.js';

/** The data export: every device row held, by its metadata (never its token). */
export { trustedDevicesOfUser as trustedDevicesHeldFor } from './repository.js';
