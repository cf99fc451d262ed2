import type { CodeSent, Language, Brand } from '@hygie/domain';
import { checkPassword, CODES, normalizePassword } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import type { Progress, ProgressContext } from '../auth/service.js';
import {
  findByUsername,
  finishStage,
  passwordCreationStage,
  passwordExpiryStage,
} from '../auth/service.js';
import { sendCode, verifyCodeAnonymously } from '../codes/service.js';
import { consumeLink, issueLink, peekLink } from '../links/service.js';
import { Throttle, typedNameKey } from '../throttle/service.js';
import { endAllAccess } from '../access/service.js';
import { isClosed, setPassword } from '../users/service.js';
import { passwordDictionary } from '../../security/password-dictionary.js';
import { queueSecurityNotice } from '../users/notices.js';
import { activeKeyNames } from '../biometrics/service.js';
import { findUserById } from '../users/service.js';

/** Refuses a new password that breaks the rule for this user (personal information included). */
export function assertAcceptablePassword(
  password: string,
  user: Pick<UserRow, 'email' | 'first_name' | 'last_name'>,
) {
  const problems = checkPassword(normalizePassword(password), {
    email: user.email,
    names: [user.first_name, user.last_name].filter((n): n is string => !!n),
    dictionary: passwordDictionary(),
  });
  if (problems.includes('contains_personal_info')) {
    throw new AppError('validation_error', {
      fields: [{ path: 'password', message: 'password_personal_info' }],
    });
  }
  if (problems.includes('too_common')) throw new AppError('password_too_common');
  if (problems.length > 0) throw new AppError('password_too_weak');
}

/**
 * The rule for a password replacing the current one (renewal, reset, change): acceptable for this
 * user, and not the current password — keeping it would leave an exposed or expired password in
 * force while the screen says it was changed. Returns the normalised password to hash.
 */
export async function assertAcceptableNewPassword(
  ctx: AppContext,
  newPassword: string,
  user: Pick<UserRow, 'email' | 'first_name' | 'last_name' | 'password_hash'>,
): Promise<string> {
  const password = normalizePassword(newPassword);
  assertAcceptablePassword(password, user);
  if (user.password_hash && (await ctx.passwords.verify(user.password_hash, password))) {
    throw new AppError('password_must_differ');
  }
  return password;
}

/**
 * Queues the "your password was changed — not you? lock your account" notice, in the caller's
 * transaction after the change: it names the keys that still sign in without the password
 * (passkeys, the app's biometric keys) and links to "My devices", where they are revoked.
 */
export async function queuePasswordChangedNotice(
  ctx: AppContext,
  trx: Db,
  user: Pick<UserRow, 'id' | 'email'>,
  request: { language: Language; brand: Brand },
): Promise<void> {
  const keys = await activeKeyNames(trx, user.id);
  await queueSecurityNotice(ctx, trx, user, 'password_changed', request, {
    keys: keys.join(', '),
    devicesUrl: new URL('/devices', ctx.config.publicUrl).href,
  });
}

/** Sets a new password at the sign-in stage that asks for one (expired, or to create). */
export async function renewPassword(
  ctx: AppContext,
  session: { id: string; userId: string; stage: string },
  newPassword: string,
  request: ProgressContext,
): Promise<Progress> {
  const user = await findUserById(ctx.db, session.userId);
  if (!user) throw new AppError('not_logged_in');
  const password = await assertAcceptableNewPassword(ctx, newPassword, user);
  const hash = await ctx.passwords.hash(password);
  const stage = session.stage === 'password_expired' ? passwordExpiryStage : passwordCreationStage;
  const { progress } = await finishStage(
    ctx,
    { ...request, userId: user.id, sessionId: session.id },
    stage,
    { passwordHash: hash, action: 'password_renewed' },
  );
  return progress;
}

type Channel = 'email' | 'sms';

/**
 * Sends a reset code by e-mail or SMS. The answer is the same for unknown accounts, and one
 * cooldown applies per name typed, known account or not, so the answers cannot tell them apart.
 */
export async function sendResetCode(
  ctx: AppContext,
  input: { username: string; channel: Channel },
  request: Pick<ProgressContext, 'language' | 'brand'>,
): Promise<CodeSent> {
  const { username, channel } = input;
  const key = typedNameKey(`forgot:${channel}`, username);
  await new Throttle(ctx.db, ctx.clock).cooldown(key, CODES.resendCooldownSeconds * 1000);

  const user = await findByUsername(ctx.db, username);
  const destination =
    channel === 'sms' ? (user?.phone_verified_at ? user.phone : null) : (user?.email ?? null);
  if (user && destination && !isClosed(user)) {
    await sendCode(ctx, {
      userId: user.id,
      purpose: channel === 'sms' ? 'reset_sms' : 'reset_email',
      channel,
      destination,
      template: 'password_reset_code',
      language: request.language,
      brand: request.brand,
    }).catch((err: unknown) => {
      // The account's own cooldown must not show through: the name's cooldown above is the answer.
      if (!(err instanceof AppError && err.code === 'wait_before_retry')) throw err;
    });
  }
  return { destination: '', retryAfterSeconds: CODES.resendCooldownSeconds };
}

/**
 * Checks the reset code; returns a short-lived, single-use reset token. Every refusal answers
 * `code_invalid`, for a known name or not (no enumeration).
 */
export async function verifyResetCode(
  ctx: AppContext,
  input: { username: string; channel: Channel; code: string },
): Promise<{ resetToken: string }> {
  const user = await findByUsername(ctx.db, input.username);
  const purpose = input.channel === 'sms' ? 'reset_sms' : 'reset_email';
  await verifyCodeAnonymously(ctx, user?.id, purpose, input.code);
  if (!user) throw new AppError('code_invalid');
  return { resetToken: await issueLink(ctx, ctx.db, user.id, 'password_reset') };
}

/**
 * Sets the new password from a reset token. A reset proves one factor only: every session and
 * trusted device ends, and the next sign-in asks for the second factor.
 */
export async function resetPassword(
  ctx: AppContext,
  input: { resetToken: string; password: string },
  request: Pick<ProgressContext, 'ip' | 'language' | 'brand'>,
): Promise<void> {
  const link = await peekLink(ctx, input.resetToken, 'password_reset');
  const user = await findUserById(ctx.db, link.userId);
  if (!user) throw new AppError('link_expired');
  const password = await assertAcceptableNewPassword(ctx, input.password, user);
  const hash = await ctx.passwords.hash(password);
  await transaction(ctx.db, async (trx) => {
    await consumeLink(ctx, trx, link.id);
    await setPassword(trx, user.id, hash, ctx.clock.now());
    await endAllAccess(ctx, trx, user.id);
    await new Throttle(trx, ctx.clock).resetAccount(user.id);
    await queuePasswordChangedNotice(ctx, trx, user, request);
    await recordAudit(trx, ctx.clock, {
      action: 'password_reset',
      actorId: user.id,
      targetId: user.id,
      ip: request.ip,
    });
  });
}
