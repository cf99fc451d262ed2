import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { newId } from '../../lib/ids.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import type { SessionMeta } from '../sessions/service.js';
import { findTrustedDeviceByTokenHash } from './repository.js';

/**
 * "Don't ask again on this device": a record (userAgent, ip, creationDate, lastUsed, expiry) and a
 * device cookie holding a random token whose hash names the record. Only that browser skips the
 * second factor, only for that user, until expiry or revocation.
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
  await db
    .insertInto('trusted_devices')
    .values({
      id,
      user_id: userId,
      token_hash: hashToken(token),
      user_agent: meta.userAgent?.slice(0, 512) ?? null,
      ip: meta.ip,
      created_at: now,
      last_used_at: now,
      expires_at: expiresAt,
    })
    .execute();
  return { id, token, expiresAt };
}

/** The trusted-device id when the cookie's token is a live record of this user, else null. */
export async function recognisedDevice(
  ctx: AppContext,
  userId: string,
  token: string | undefined,
): Promise<string | null> {
  if (!token) return null;
  const device = await findTrustedDeviceByTokenHash(ctx.db, hashToken(token));
  const now = ctx.clock.now();
  if (!device || device.user_id !== userId || now >= device.expires_at) return null;
  await ctx.db
    .updateTable('trusted_devices')
    .set({ last_used_at: now })
    .where('id', '=', device.id)
    .execute();
  return device.id;
}
