import { createHash, randomInt } from 'node:crypto';
import { transaction } from '../../db/transaction.js';
import type { Brand, Language, RecoveryCodesStatus } from '@hygie/domain';
import { formatRecoveryCode, normalizeRecoveryCode, RECOVERY_CODES } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { Throttle } from '../throttle/service.js';
import { refuseWrongCode, throttleKey } from '../totp/service.js';
import { queueSecurityNotice } from '../users/notices.js';
import {
  decrementRecoveryCodesLeft,
  findUserById,
  setRecoveryCodesLeft,
} from '../users/service.js';
import {
  claimRecoveryCode,
  recoveryCodeExists,
  recoveryCodesSummary,
  replaceRecoveryCodes,
} from './repository.js';

// Recovery codes (issue #20, docs/security.md): a set of 10, each 12 characters drawn uniformly
// from a 32-character alphabet with the operating system's random source (60 bits each), shown
// once and stored as a hash only; each accepted once.

type NoticeRequest = { ip: string | null; language: Language; brand: Brand };

/**
 * The stored form of a code: SHA-256 of the account's id and the normalised code. The codes are
 * random and long (60 bits), so a slow password hash would add nothing a guesser could feel
 * (docs/decisions.md); the account's id keeps one computation from testing every account at once.
 */
export function recoveryCodeHash(userId: string, code: string): string {
  return createHash('sha256')
    .update(`recovery_code\0${userId}\0${normalizeRecoveryCode(code)}`)
    .digest('hex');
}

/** A new set of codes, grouped for display (`XXXX-XXXX-XXXX`), all different. */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODES.count) {
    let code = '';
    for (let i = 0; i < RECOVERY_CODES.length; i++) {
      code += RECOVERY_CODES.alphabet[randomInt(RECOVERY_CODES.alphabet.length)];
    }
    codes.add(formatRecoveryCode(code));
  }
  return [...codes];
}

/** How many codes the account has left, and when its set was made (never the codes). */
export function recoveryCodesStatus(ctx: AppContext, userId: string): Promise<RecoveryCodesStatus> {
  return recoveryCodesSummary(ctx.db, userId);
}

/** Whether the account has recovery codes left: `recovery_code` is then a second factor. */
export function hasRecoveryCodes(user: Pick<UserRow, 'recovery_codes_left'>): boolean {
  return user.recovery_codes_left > 0;
}

/**
 * A new set of codes replaces the account's (after the step-up, or as the first authenticator app
 * or passkey is enrolled): the old ones stop working in the same transaction. Audited; the owner
 * is told of a set asked for (the first set comes with the enrolment's own notice). Returns the
 * codes, to show once.
 */
export async function generateRecoveryCodes(
  ctx: AppContext,
  userId: string,
  request: NoticeRequest,
  notify = true,
): Promise<string[]> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  const codes = newRecoveryCodes();
  const now = ctx.clock.now();
  await transaction(ctx.db, async (trx) => {
    await replaceRecoveryCodes(
      trx,
      user.id,
      codes.map((code) => recoveryCodeHash(user.id, code)),
      now,
    );
    await setRecoveryCodesLeft(trx, user.id, codes.length);
    await recordAudit(trx, ctx.clock, {
      action: 'recovery_codes_generated',
      actorId: user.id,
      targetId: user.id,
      ip: request.ip,
      details: { count: codes.length },
    });
    if (notify) await queueSecurityNotice(ctx, trx, user, 'recovery_codes_generated', request);
  });
  return codes;
}

/**
 * The first codes, when a second factor that can be lost is enrolled (an authenticator app, a
 * passkey) and the account has none left; undefined when it still has some.
 */
export async function firstRecoveryCodes(
  ctx: AppContext,
  userId: string,
  request: NoticeRequest,
): Promise<string[] | undefined> {
  const user = await findUserById(ctx.db, userId);
  if (!user || hasRecoveryCodes(user)) return undefined;
  return generateRecoveryCodes(ctx, userId, request, false);
}

/**
 * Checks a recovery code (at the sign-in's second factor or a step-up) and uses it: one
 * conditional update claims it, so of parallel submissions of one code exactly one passes and the
 * others get recovery_code_already_used. Wrong codes count on the authenticator app's per-account throttle.
 * The owner is told, with how many are left; returns that number.
 */
export async function useRecoveryCode(
  ctx: AppContext,
  userId: string,
  code: string,
  request: NoticeRequest,
): Promise<number> {
  const throttle = new Throttle(ctx.db, ctx.clock);
  await throttle.check(throttleKey(userId));
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  const hash = recoveryCodeHash(user.id, code);
  const now = ctx.clock.now();
  const left = await transaction(ctx.db, async (trx) => {
    if (!(await claimRecoveryCode(trx, user.id, hash, now))) return null;
    const remaining = await decrementRecoveryCodesLeft(trx, user.id);
    await recordAudit(trx, ctx.clock, {
      action: 'recovery_code_used',
      actorId: user.id,
      targetId: user.id,
      ip: request.ip,
      details: { remaining },
    });
    await queueSecurityNotice(ctx, trx, user, 'recovery_code_used', request, {
      remaining: String(remaining),
    });
    return remaining;
  });
  if (left === null) {
    if (await recoveryCodeExists(ctx.db, user.id, hash)) {
      throw new AppError('recovery_code_already_used');
    }
    return refuseWrongCode(throttle, user.id, now);
  }
  await throttle.reset(throttleKey(user.id));
  return left;
}
