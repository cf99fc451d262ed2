import { Secret, TOTP } from 'otpauth';
import { transaction } from '../../db/transaction.js';
import type { Brand, Language, TotpStatus } from '@hygie/domain';
import { BRAND_NAMES } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import {
  accountSubject,
  accountWaitMs,
  ACCOUNT_FREE_FAILURES,
  Throttle,
} from '../throttle/service.js';
import { queueSecurityNotice } from '../users/notices.js';
import {
  claimTotpStep,
  clearTotp,
  enableTotp,
  findUserById,
  setPendingTotpSecret,
} from '../users/service.js';

// The authenticator app (RFC 6238, docs/security.md): SHA-1, 6 digits, 30-second steps, a
// 160-bit secret (RFC 4226 §4's recommended length). A code is accepted for the current step or
// one step either side (a phone's clock drifts, a user types slowly), and once only.
const PERIOD_S = 30;
const DIGITS = 6;
const SECRET_BYTES = 20;
/** Steps of drift accepted either side of the server's. */
export const TOTP_WINDOW = 1;

function totpOf(secret: string, issuer = '', label = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/**
 * The time step a code matches (now's step ±1), or null. The library compares in constant time.
 */
function matchingStep(secret: string, code: string, now: number): number | null {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp: now }) + delta;
}

/**
 * Wrong codes of the app count on their own per-account throttle, like the sign-in's slowing: 5
 * free, then 60 s doubling to 15 min (429 too_many_attempts with the wait); a right code clears it.
 * Wrong recovery codes count on the same one (modules/recovery-codes).
 */
export function throttleKey(userId: string): string {
  return `totp:${accountSubject(userId)}`;
}

/** Counts a wrong code on the account's throttle and refuses it (wrong_code, then 429). */
export async function refuseWrongCode(
  throttle: Throttle,
  userId: string,
  now: number,
): Promise<never> {
  const failures = await throttle.fail(throttleKey(userId), (count) => {
    const wait = accountWaitMs(count);
    return wait > 0 ? now + wait : null;
  });
  if (failures >= ACCOUNT_FREE_FAILURES) await throttle.check(throttleKey(userId));
  throw new AppError('wrong_code', {
    remainingAttempts: Math.max(0, ACCOUNT_FREE_FAILURES - failures),
  });
}

export function totpStatusOf(user: Pick<UserRow, 'totp_enabled_at'>): TotpStatus {
  return { enabled: user.totp_enabled_at !== null, enabledAt: user.totp_enabled_at };
}

/** Whether the account's authenticator app is a second factor (confirmed). */
export function hasTotp(user: Pick<UserRow, 'totp_enabled_at'>): boolean {
  return user.totp_enabled_at !== null;
}

/**
 * Starts the enrolment of an authenticator app (after the step-up, step-up/service.ts proveNow): a new secret, stored sealed and pending until a
 * first code confirms it, returned once as the `otpauth://` URI (issuer: the brand's name, label:
 * the account's e-mail). A pending enrolment started again gets a new secret. 409 when an app is
 * already confirmed.
 */
export async function startTotpEnrolment(
  ctx: AppContext,
  userId: string,
  request: { ip: string | null; brand: Brand },
): Promise<{ otpauthUri: string }> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  if (hasTotp(user)) throw new AppError('totp_already_enabled');
  const secret = new Secret({ size: SECRET_BYTES }).base32;
  const now = ctx.clock.now();
  await transaction(ctx.db, async (trx) => {
    if (!(await setPendingTotpSecret(trx, user.id, secret, now))) {
      throw new AppError('totp_already_enabled');
    }
    await recordAudit(trx, ctx.clock, {
      action: 'totp_enrolment_started',
      actorId: user.id,
      targetId: user.id,
      ip: request.ip,
    });
  });
  return { otpauthUri: totpOf(secret, BRAND_NAMES[request.brand], user.email).toString() };
}

/**
 * Confirms the pending app with a first code: from now on it is a second factor. The owner is
 * told by e-mail. A wrong code is throttled like the app's other codes.
 */
export async function confirmTotp(
  ctx: AppContext,
  userId: string,
  code: string,
  request: { ip: string | null; language: Language; brand: Brand },
): Promise<TotpStatus> {
  const throttle = new Throttle(ctx.db, ctx.clock);
  await throttle.check(throttleKey(userId));
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  if (hasTotp(user)) throw new AppError('totp_already_enabled');
  if (user.totp_secret === null) throw new AppError('code_invalid');
  const now = ctx.clock.now();
  const step = matchingStep(user.totp_secret, code, now);
  if (step === null) return refuseWrongCode(throttle, userId, now);
  await throttle.reset(throttleKey(userId));
  await transaction(ctx.db, async (trx) => {
    if (!(await enableTotp(trx, userId, step, now))) throw new AppError('totp_already_enabled');
    await recordAudit(trx, ctx.clock, {
      action: 'totp_enabled',
      actorId: userId,
      targetId: userId,
      ip: request.ip,
    });
    await queueSecurityNotice(ctx, trx, user, 'totp_enabled', request);
  });
  return { enabled: true, enabledAt: now };
}

/** Removes the authenticator app (after the step-up); the owner is told by e-mail. 404 when there is none. */
export async function removeTotp(
  ctx: AppContext,
  userId: string,
  request: { ip: string | null; language: Language; brand: Brand },
): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  await transaction(ctx.db, async (trx) => {
    if (!(await clearTotp(trx, user.id, ctx.clock.now()))) throw new AppError('not_found');
    await recordAudit(trx, ctx.clock, {
      action: 'totp_removed',
      actorId: user.id,
      targetId: user.id,
      ip: request.ip,
    });
    await queueSecurityNotice(ctx, trx, user, 'totp_removed', request);
  });
}

/**
 * Checks a code of the account's confirmed app (at the sign-in's second factor or a step-up):
 * the current step ±1, each code once — the accepted step is claimed with a compare-and-set, so of
 * parallel submissions of one code exactly one passes and the others get code_already_used.
 */
export async function verifyTotpCode(ctx: AppContext, userId: string, code: string): Promise<void> {
  const throttle = new Throttle(ctx.db, ctx.clock);
  await throttle.check(throttleKey(userId));
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  if (!hasTotp(user) || user.totp_secret === null) throw new AppError('code_invalid');
  const now = ctx.clock.now();
  const step = matchingStep(user.totp_secret, code, now);
  if (step === null) return refuseWrongCode(throttle, userId, now);
  if (!(await claimTotpStep(ctx.db, userId, step))) throw new AppError('code_already_used');
  await throttle.reset(throttleKey(userId));
}
