import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { hashToken, randomToken } from '../../lib/tokens.js';

/** Links sent by e-mail: ≥ 128-bit random, single use, expiring (security.md). */
export type LinkPurpose = 'first_login' | 'lock_account' | 'password_reset';

export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  first_login: 7 * 24 * 60 * 60_000,
  lock_account: 7 * 24 * 60 * 60_000,
  password_reset: 15 * 60_000,
};

/** Creates a link token in the caller's transaction; returns the token (only its hash is kept). */
export async function issueLink(
  ctx: AppContext,
  db: Db,
  userId: string,
  purpose: LinkPurpose,
): Promise<string> {
  const now = ctx.clock.now();
  const token = randomToken(32);
  await db
    .insertInto('link_tokens')
    .values({
      id: newId(),
      user_id: userId,
      purpose,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: now + LINK_TTL_MS[purpose],
      consumed_at: null,
    })
    .execute();
  return token;
}

/** The user a valid, unused link names; link_expired otherwise. Does not consume it. */
export async function peekLink(
  ctx: AppContext,
  token: string,
  purpose: LinkPurpose,
): Promise<{ id: string; userId: string }> {
  const row = await ctx.db
    .selectFrom('link_tokens')
    .select(['id', 'user_id', 'expires_at', 'consumed_at', 'purpose'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
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
  const result = await db
    .updateTable('link_tokens')
    .set({ consumed_at: ctx.clock.now() })
    .where('id', '=', linkId)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError('link_expired');
}
