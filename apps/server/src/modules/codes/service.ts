import { randomInt } from 'node:crypto';
import type { Brand, CodeSent, ErrorCode, Language } from '@hygie/domain';
import { CODES, isOneOf, maskEmail, maskPhone } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { lockUntilCommit } from '../../db/connection.js';
import { AppError, isAppError, retryLater } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { hmac, safeEqual } from '../../lib/tokens.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import type { TemplateName } from '../../messaging/templates.js';
import { loadSettings } from '../settings/service.js';
import {
  consumeCode,
  countWrongAttempt,
  insertCode,
  latestCode,
  recentSendsOf,
  recentSendsTo,
  supersedeCodes,
  supersedeCodesOfUser,
} from './repository.js';

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
 * Codes to a destination nobody has proven yet: the sends a stranger can aim at any number (SMS
 * pumping), so they also meet a per-destination cap. Codes to an account's verified e-mail or
 * phone (second factor, reset) never do: others' requests cannot block the owner's own codes.
 */
const UNPROVEN_DESTINATION: readonly CodePurpose[] = [
  'email_verification',
  'phone_verification',
  'email_change',
  'phone_change',
];

/** Milliseconds until a window of `max` sends per hour has room again (0: it has room). */
function waitForRoom(sends: readonly { created_at: number }[], max: number, now: number): number {
  const oldestCounted = sends[max - 1];
  return oldestCounted ? oldestCounted.created_at + HOUR - now : 0;
}

/**
 * Seconds to wait before another code may be sent (security.md): 60 s after the account's last
 * code for this purpose, at most 5 per account and purpose per hour, and, for a destination not
 * yet proven, at most 5 such codes to it per hour whoever asks.
 */
export async function secondsBeforeResend(
  db: Db,
  now: number,
  userId: string,
  purpose: CodePurpose,
  destination: string,
): Promise<number> {
  const mine = await recentSendsOf(db, userId, purpose, now - HOUR);
  const last = mine[0]?.created_at;
  let wait = last === undefined ? 0 : last + CODES.resendCooldownSeconds * 1000 - now;
  wait = Math.max(wait, waitForRoom(mine, CODES.maxSendsPerHour, now));
  if (UNPROVEN_DESTINATION.includes(purpose)) {
    const toDestination = await recentSendsTo(db, destination, UNPROVEN_DESTINATION, now - HOUR);
    wait = Math.max(
      wait,
      waitForRoom(toDestination, CODES.maxUnprovenSendsPerDestinationPerHour, now),
    );
  }
  return Math.ceil(Math.max(0, wait) / 1000);
}

/** A code issued: the code itself (for its message), when it expires, and its lifetime. */
export interface IssuedCode {
  code: string;
  expiresAt: number;
  ttlSeconds: number;
}

/**
 * Issues a new code (the previous one of the same purpose stops working) in the caller's
 * transaction; throws 429 wait_before_retry when it is too soon. Returns the code to send. The
 * check and the insert are one step under concurrency: the transaction holds the account and
 * purpose (and the destination, where it is capped) until it commits, so of 10 parallel sends
 * exactly one passes the cooldown. `alongside` writes what goes with the code (its message), sent
 * with it.
 */
export async function issueCode(
  ctx: AppContext,
  db: Db,
  userId: string,
  purpose: CodePurpose,
  destination: string,
  alongside?: (issued: IssuedCode) => Promise<unknown>,
): Promise<IssuedCode> {
  const now = ctx.clock.now();
  // Sent together, in this order (db/transaction.ts): the transaction's statements run one after
  // the other, so the recent sends are counted once the locks are held.
  const [, , wait, { CODE_TTL }] = await Promise.all([
    lockUntilCommit(db, `code:${userId}:${purpose}`),
    UNPROVEN_DESTINATION.includes(purpose)
      ? lockUntilCommit(db, `code-to:${destination}`)
      : undefined,
    secondsBeforeResend(db, now, userId, purpose, destination),
    loadSettings(ctx, db),
  ]);
  if (wait > 0) throw retryLater('wait_before_retry', wait);
  const code = generateCode();
  const issued = { code, expiresAt: now + CODE_TTL * 1000, ttlSeconds: CODE_TTL };
  const id = newId();
  // Sent together, with what the caller writes of it (its message): the codes superseded are every
  // one but the new, so their order does not matter, in a transaction or out of one.
  await Promise.all([
    supersedeCodes(db, userId, purpose, now, id),
    insertCode(db, {
      id,
      user_id: userId,
      purpose,
      destination,
      code_hash: codeHash(ctx.secret, userId, purpose, destination, code),
      attempts: 0,
      created_at: now,
      expires_at: issued.expiresAt,
      consumed_at: null,
      superseded_at: null,
    }),
    alongside?.(issued),
  ]);
  return issued;
}

/** A code to send: to whom, for what, and in which message. */
export interface CodeMessage {
  userId: string;
  purpose: CodePurpose;
  channel: 'email' | 'sms';
  /** The e-mail address or E.164 number the code goes to (and is bound to). */
  destination: string;
  template: Extract<TemplateName, 'mfa_code' | 'verification_code' | 'password_reset_code'>;
  language: Language;
  brand: Brand;
  /** Template parameters beyond the code (e.g. a link carrying it). */
  params?: (code: string) => Record<string, string>;
}

/**
 * "Send a code" in the caller's transaction: the cooldown and hourly cap, the new code, and its
 * message in the outbox — all written, or none. Returns what the client is told.
 */
export async function queueCode(ctx: AppContext, trx: Db, message: CodeMessage): Promise<CodeSent> {
  // The message is written with the code, in the same round trip (issueCode).
  await issueCode(
    ctx,
    trx,
    message.userId,
    message.purpose,
    message.destination,
    ({ code, expiresAt, ttlSeconds }) =>
      // A code the outbox could not deliver before it expires is not sent at all.
      enqueueMessage(trx, ctx.clock, {
        expiresAt,
        channel: message.channel,
        recipient: message.destination,
        template: message.template,
        language: message.language,
        brand: message.brand,
        // The message says how long the code lives (the CODE_TTL setting when it was issued).
        params: { code, ttlSeconds: String(ttlSeconds), ...message.params?.(code) },
      }),
  );
  return codeSent(message.channel, message.destination);
}

/** "Send a code" in a transaction of its own (see queueCode). */
export function sendCode(ctx: AppContext, message: CodeMessage): Promise<CodeSent> {
  return transaction(ctx.db, (trx) => queueCode(ctx, trx, message));
}

/** The answer to a send: the masked destination and when the client may ask again. */
export function codeSent(channel: 'email' | 'sms', destination: string): CodeSent {
  return {
    destination: channel === 'sms' ? maskPhone(destination) : maskEmail(destination),
    retryAfterSeconds: CODES.resendCooldownSeconds,
  };
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
  const current = await latestCode(ctx.db, userId, purpose);
  if (!current || current.superseded_at !== null || current.consumed_at !== null) {
    throw new AppError('code_invalid');
  }
  if (current.attempts >= CODES.maxAttempts) throw new AppError('too_many_trials');
  if (now >= current.expires_at) throw new AppError('code_expired');

  const expected = codeHash(ctx.secret, userId, purpose, current.destination, code);
  if (safeEqual(expected, current.code_hash)) {
    if (await consumeCode(ctx.db, current.id, now, CODES.maxAttempts)) {
      return { destination: current.destination };
    }
    throw new AppError('code_invalid');
  }
  const attempts = (await countWrongAttempt(ctx.db, current.id)) ?? CODES.maxAttempts;
  if (attempts >= CODES.maxAttempts) throw new AppError('too_many_trials');
  throw new AppError('wrong_code', { remainingAttempts: CODES.maxAttempts - attempts });
}

/** What a failed check of a code answers (verifyCode's refusals). */
export const CODE_REFUSALS = [
  'code_invalid',
  'code_expired',
  'too_many_trials',
  'wrong_code',
] as const satisfies readonly ErrorCode[];

/**
 * verifyCode for a caller who has not signed in (a name or an address typed, a link): every
 * refusal is the one answer an unknown name gets, `code_invalid`, so the answers cannot tell a
 * real account (with or without a code in flight) from none. The account's own count of wrong
 * tries still ends the code at the fifth.
 */
export async function verifyCodeAnonymously(
  ctx: AppContext,
  userId: string | undefined,
  purpose: CodePurpose,
  code: string,
): Promise<{ destination: string }> {
  if (userId === undefined) throw new AppError('code_invalid');
  try {
    return await verifyCode(ctx, userId, purpose, code);
  } catch (err) {
    if (isAppError(err) && isOneOf(CODE_REFUSALS, err.code)) throw new AppError('code_invalid');
    throw err;
  }
}

/** Every outstanding code of a user (of these purposes, or all) stops working now. */
export function voidCodesOfUser(
  ctx: Pick<AppContext, 'clock'>,
  db: Db,
  userId: string,
  purposes?: readonly CodePurpose[],
): Promise<void> {
  return supersedeCodesOfUser(db, userId, purposes, ctx.clock.now());
}

/** Retention (maintenance). */
export { deleteCodesExpiredBefore } from './repository.js';

/** The data export: the codes sent and not yet purged, by their metadata (never the code). */
export { codesOfUser as codesHeldFor } from './repository.js';
