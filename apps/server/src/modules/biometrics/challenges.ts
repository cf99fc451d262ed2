import type { AppContext } from '../../context.js';
import type { BiometricChallengeTable } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { randomToken } from '../../lib/tokens.js';

export const CHALLENGE_TTL_MS = 5 * 60_000;
type Purpose = BiometricChallengeTable['purpose'];

/** A fresh 256-bit challenge for one ceremony (≥ 64 bits required), valid 5 minutes. */
export async function createChallenge(ctx: AppContext, purpose: Purpose, userId: string | null) {
  const now = ctx.clock.now();
  const challenge = randomToken(32);
  const id = newId();
  await ctx.db
    .insertInto('biometric_challenges')
    .values({
      id,
      user_id: userId,
      purpose,
      challenge,
      created_at: now,
      expires_at: now + CHALLENGE_TTL_MS,
      consumed_at: null,
    })
    .execute();
  return { challengeId: id, challenge, expiresAt: new Date(now + CHALLENGE_TTL_MS).toISOString() };
}

/**
 * Uses a challenge once: a replayed, expired or foreign challenge is refused
 * (biometric_verification_failed). The consuming UPDATE is conditional, so two concurrent uses
 * cannot both pass.
 */
export async function consumeChallenge(
  ctx: AppContext,
  challengeId: string,
  purpose: Purpose,
  userId: string | null = null,
): Promise<string> {
  const now = ctx.clock.now();
  const result = await ctx.db
    .updateTable('biometric_challenges')
    .set({ consumed_at: now })
    .where('id', '=', challengeId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .$if(userId !== null, (qb) => qb.where('user_id', '=', userId ?? ''))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError('biometric_verification_failed');
  const row = await ctx.db
    .selectFrom('biometric_challenges')
    .select('challenge')
    .where('id', '=', challengeId)
    .executeTakeFirstOrThrow();
  return row.challenge;
}
