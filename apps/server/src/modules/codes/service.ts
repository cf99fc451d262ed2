import { randomInt } from 'node:crypto';
import { CODES } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { hmac, safeEqual } from '../../lib/tokens.js';
import { loadSettings } from '../settings/service.js';

/** What a code is for: it only works in that flow, for that user and destination. */
export type CodePurpose =
  | 'email_verification'
  | 'phone_verification'
  | 'mfa_email'
  | 'mfa_sms'
  | 'reset_email'
  | 'reset_sms'
  | 'email_change'
  | 'phone_change';

const HOUR = 60 * 60_000;

/** Six digits from a CSPRNG. */
export function generateCode(): string {
  return String(randomInt(0, 10 ** CODES.length)).padStart(CODES.length, '0');
}

function codeHash(
  secret: string,
  userId: string,
  purpose: CodePurpose,
  destination: string,
  code: string,
) {
  // Keyed and bound to the flow and the destination: a code for one never verifies another.
  return hmac(secret, `code:${purpose}:${userId}:${destination}:${code}`);
}

/**
 * Seconds to wait before another code may be sent for this purpose and destination: 60 s after the
 * last one, and no more than 5 per destination per hour (security.md).
 */
export async function secondsBeforeResend(
  db: Db,
  now: number,
  userId: string,
  purpose: CodePurpose,
  destination: string,
): Promise<number> {
  const recent = await db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('destination', '=', destination)
    .where('created_at', '>', now - HOUR)
    .orderBy('created_at', 'desc')
    .execute();
  const last = await db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  let wait = 0;
  if (last) wait = Math.max(wait, last.created_at + CODES.resendCooldownSeconds * 1000 - now);
  if (recent.length >= CODES.maxSendsPerHour) {
    const oldestInWindow = recent[CODES.maxSendsPerHour - 1]?.created_at ?? now;
    wait = Math.max(wait, oldestInWindow + HOUR - now);
  }
  return Math.ceil(Math.max(0, wait) / 1000);
}

/**
 * Issues a new code (the previous one of the same purpose stops working) in the caller's
 * transaction; throws 429 wait_before_retry when it is too soon. Returns the code to send.
 */
export async function issueCode(
  ctx: AppContext,
  db: Db,
  userId: string,
  purpose: CodePurpose,
  destination: string,
): Promise<string> {
  const now = ctx.clock.now();
  const wait = await secondsBeforeResend(db, now, userId, purpose, destination);
  if (wait > 0)
    throw new AppError(
      'wait_before_retry',
      { retryAfterSeconds: wait },
      { 'retry-after': String(wait) },
    );
  await db
    .updateTable('one_time_codes')
    .set({ superseded_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .where('superseded_at', 'is', null)
    .execute();
  const code = generateCode();
  const { CODE_TTL } = await loadSettings(ctx, db);
  await db
    .insertInto('one_time_codes')
    .values({
      id: newId(),
      user_id: userId,
      purpose,
      destination,
      code_hash: codeHash(ctx.secret, userId, purpose, destination, code),
      attempts: 0,
      created_at: now,
      expires_at: now + CODE_TTL * 1000,
      consumed_at: null,
      superseded_at: null,
    })
    .execute();
  return code;
}

/**
 * Verifies and consumes the current code of a purpose. Single use under concurrency: the code is
 * consumed by one conditional UPDATE, so of 20 simultaneous right answers exactly one succeeds.
 * 5 wrong tries invalidate it (too_many_trials).
 */
export async function verifyCode(
  ctx: AppContext,
  userId: string,
  purpose: CodePurpose,
  code: string,
): Promise<{ destination: string }> {
  const now = ctx.clock.now();
  const current = await ctx.db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!current || current.superseded_at !== null || current.consumed_at !== null) {
    throw new AppError('code_invalid');
  }
  if (current.attempts >= CODES.maxAttempts) throw new AppError('too_many_trials');
  if (now >= current.expires_at) throw new AppError('code_expired');

  const expected = codeHash(ctx.secret, userId, purpose, current.destination, code);
  if (safeEqual(expected, current.code_hash)) {
    const consumed = await ctx.db
      .updateTable('one_time_codes')
      .set({ consumed_at: now })
      .where('id', '=', current.id)
      .where('consumed_at', 'is', null)
      .where('superseded_at', 'is', null)
      .where('attempts', '<', CODES.maxAttempts)
      .executeTakeFirst();
    if (Number(consumed.numUpdatedRows) === 1) return { destination: current.destination };
    throw new AppError('code_invalid');
  }
  const counted = await ctx.db
    .updateTable('one_time_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', current.id)
    .where('consumed_at', 'is', null)
    .returning('attempts')
    .executeTakeFirst();
  const attempts = counted?.attempts ?? CODES.maxAttempts;
  if (attempts >= CODES.maxAttempts) throw new AppError('too_many_trials');
  throw new AppError('wrong_code', { remainingAttempts: CODES.maxAttempts - attempts });
}
