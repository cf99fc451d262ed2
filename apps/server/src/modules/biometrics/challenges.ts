import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { randomToken } from '../../lib/tokens.js';
import type { ChallengePurpose } from './repository.js';
import { challengeValue, consumeChallengeRow, insertChallenge } from './repository.js';

export const CHALLENGE_TTL_MS = 5 * 60_000;

/** A fresh 256-bit challenge for one ceremony (≥ 64 bits required), valid 5 minutes. */
export async function createChallenge(
  ctx: AppContext,
  purpose: ChallengePurpose,
  userId: string | null,
) {
  const now = ctx.clock.now();
  const challenge = randomToken(32);
  const id = newId();
  await insertChallenge(ctx.db, {
    id,
    user_id: userId,
    purpose,
    challenge,
    created_at: now,
    expires_at: now + CHALLENGE_TTL_MS,
    consumed_at: null,
  });
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
  purpose: ChallengePurpose,
  userId: string | null = null,
): Promise<string> {
  if (!(await consumeChallengeRow(ctx.db, challengeId, purpose, userId, ctx.clock.now()))) {
    throw new AppError('biometric_verification_failed');
  }
  return challengeValue(ctx.db, challengeId);
}
