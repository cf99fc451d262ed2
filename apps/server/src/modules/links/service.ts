import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import {
  consumeLinksOfUser,
  consumeLinkToken,
  findLinkTokenByHash,
  insertLinkToken,
} from './repository.js';

/** Links sent by e-mail: ≥ 128-bit random, single use, expiring (security.md). */
export type LinkPurpose = 'first_login' | 'lock_account' | 'password_reset';

export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  first_login: 7 * 24 * 60 * 60_000,
  lock_account: 7 * 24 * 60 * 60_000,
  password_reset: 15 * 60_000,
};

/**
 * Creates a link token in the caller's transaction, valid for its purpose's time unless told
 * otherwise; returns the token (only its hash is kept). `alongside` writes what carries the link
 * (its message), sent with it.
 */
export async function issueLink(
  ctx: AppContext,
  db: Db,
  userId: string,
  purpose: LinkPurpose,
  ttlMs: number = LINK_TTL_MS[purpose],
  alongside?: (token: string) => Promise<unknown>,
): Promise<string> {
  const now = ctx.clock.now();
  const token = randomToken(32);
  await Promise.all([
    insertLinkToken(db, {
      id: newId(),
      user_id: userId,
      purpose,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: now + ttlMs,
      consumed_at: null,
    }),
    alongside?.(token),
  ]);
  return token;
}

/** The user a valid, unused link names; link_expired otherwise. Does not consume it. */
export async function peekLink(
  ctx: AppContext,
  token: string,
  purpose: LinkPurpose,
): Promise<{ id: string; userId: string }> {
  const row = await findLinkTokenByHash(ctx.db, hashToken(token));
  if (
    !row ||
    row.purpose !== purpose ||
    row.consumed_at !== null ||
    ctx.clock.now() >= row.expires_at
  ) {
    throw new AppError('link_expired');
  }
  return { id: row.id, userId: row.user_id };
}

/** Consumes a link once (atomic): a second use, even concurrent, gets link_expired. */
export async function consumeLink(ctx: AppContext, db: Db, linkId: string): Promise<void> {
  if (!(await consumeLinkToken(db, linkId, ctx.clock.now()))) throw new AppError('link_expired');
}

/** Every unused link of a user (of these purposes, or all) stops working now. */
export function voidLinksOfUser(
  ctx: Pick<AppContext, 'clock'>,
  db: Db,
  userId: string,
  purposes?: readonly LinkPurpose[],
): Promise<void> {
  return consumeLinksOfUser(db, userId, purposes, ctx.clock.now());
}

/** Retention (maintenance). */
export { deleteLinksSettledBefore } from './repository.js';

/** The data export: the links e-mailed and not yet purged, by their metadata (never the link). */
export { linksOfUser as linksHeldFor } from './repository.js';
