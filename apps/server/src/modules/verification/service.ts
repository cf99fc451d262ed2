import type { CodeSent } from '@hygie/domain';
import { CODES } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import type { Progress, ProgressContext } from '../auth/service.js';
import {
  advanceSession,
  emailVerificationStage,
  finishStage,
  phoneVerificationStage,
} from '../auth/service.js';
import { codeSent, queueCode, verifyCode, verifyCodeAnonymously } from '../codes/service.js';
import { Throttle, typedNameKey } from '../throttle/service.js';
import { findUserByEmail, findUserById, setUnverifiedPhone } from '../users/service.js';

type MessageContext = Pick<ProgressContext, 'language' | 'brand'>;
/** The caller's session, when there is one (verification also works from the e-mailed link). */
export type MaybeSession = { id: string; userId: string } | null;

/** The link in the verification e-mail: the verify-email page with the address and code filled in. */
export function verifyLink(publicUrl: URL, email: string, code: string): string {
  const url = new URL('/security/verify-email', publicUrl);
  url.searchParams.set('email', email);
  url.searchParams.set('code', code);
  return url.href;
}

/** Queues the e-mail verification code (with its link) in the caller's transaction. */
export function queueEmailVerificationCode(
  ctx: AppContext,
  trx: Db,
  user: { id: string; email: string },
  request: MessageContext,
): Promise<CodeSent> {
  return queueCode(ctx, trx, {
    userId: user.id,
    purpose: 'email_verification',
    channel: 'email',
    destination: user.email,
    template: 'verification_code',
    language: request.language,
    brand: request.brand,
    params: (code) => ({ link: verifyLink(ctx.config.publicUrl, user.email, code) }),
  });
}

/**
 * Sends the e-mail verification code (again): to the session's user, or to the address typed.
 * Anonymous callers get the same answer whether the address has an account or not.
 */
export async function sendEmailVerification(
  ctx: AppContext,
  session: { userId: string; email: string } | null,
  typedEmail: string | undefined,
  request: MessageContext,
): Promise<CodeSent> {
  const email = session?.email ?? typedEmail;
  if (!email) {
    throw new AppError('validation_error', {
      fields: [{ path: 'email', message: 'field_required' }],
    });
  }
  if (session) {
    const user = await findUserById(ctx.db, session.userId);
    if (user && user.email_verified_at === null) {
      await transaction(ctx.db, (trx) => queueEmailVerificationCode(ctx, trx, user, request));
    }
    return codeSent('email', email);
  }
  // Anonymous: one cooldown per address typed, account or not; the account's own limits (which
  // only a real unverified account has) must not show through.
  await new Throttle(ctx.db, ctx.clock).cooldown(
    typedNameKey('verify-email', email),
    CODES.resendCooldownSeconds * 1000,
  );
  const user = await findUserByEmail(ctx.db, email);
  if (user && user.email_verified_at === null) {
    await transaction(ctx.db, (trx) => queueEmailVerificationCode(ctx, trx, user, request)).catch(
      (err: unknown) => {
        if (!(err instanceof AppError && err.code === 'wait_before_retry')) throw err;
      },
    );
  }
  return codeSent('email', email);
}

/**
 * Verifies the e-mail address with its code. With a session the stage is finished (progress comes
 * back); from the e-mailed link only the address becomes verified (null).
 */
export async function verifyEmail(
  ctx: AppContext,
  session: MaybeSession,
  input: { email?: string | undefined; code: string },
  request: ProgressContext,
): Promise<Progress | null> {
  const user = session
    ? await findUserById(ctx.db, session.userId)
    : input.email
      ? await findUserByEmail(ctx.db, input.email)
      : undefined;
  if (!session) {
    // From the e-mailed link, anonymous: an unknown address, an address already verified and a
    // wrong code all answer `code_invalid` (no enumeration).
    const pending = user && user.email_verified_at === null ? user : undefined;
    await verifyCodeAnonymously(ctx, pending?.id, 'email_verification', input.code);
    if (!pending) throw new AppError('code_invalid');
    await emailVerificationStage.complete(ctx, ctx.db, {
      ...request,
      userId: pending.id,
      sessionId: null,
    });
    return null;
  }
  if (!user) throw new AppError('code_invalid');
  const actor = { ...request, userId: user.id, sessionId: session.id };
  if (user.email_verified_at === null) {
    await verifyCode(ctx, user.id, 'email_verification', input.code);
    const { progress } = await finishStage(
      ctx,
      { ...actor, sessionId: session.id },
      emailVerificationStage,
      undefined,
    );
    return progress;
  }
  return advanceSession(ctx, session.id, session.userId, request, { rotate: true });
}

function sendPhoneCode(
  ctx: AppContext,
  trx: Db,
  userId: string,
  phone: string,
  request: MessageContext,
): Promise<CodeSent> {
  return queueCode(ctx, trx, {
    userId,
    purpose: 'phone_verification',
    channel: 'sms',
    destination: phone,
    template: 'verification_code',
    language: request.language,
    brand: request.brand,
  });
}

/** Sets the mobile phone number (unverified) and sends it a code, in one transaction. */
export function changePhone(
  ctx: AppContext,
  userId: string,
  phone: string,
  request: MessageContext,
): Promise<CodeSent> {
  return transaction(ctx.db, async (trx) => {
    await setUnverifiedPhone(trx, userId, phone, ctx.clock.now());
    return sendPhoneCode(ctx, trx, userId, phone, request);
  });
}

/** Sends the phone verification code again, to the number on file. */
export async function resendPhoneCode(
  ctx: AppContext,
  userId: string,
  phone: string | null,
  request: MessageContext,
): Promise<CodeSent> {
  if (!phone) {
    throw new AppError('validation_error', {
      fields: [{ path: 'phone', message: 'field_required' }],
    });
  }
  return transaction(ctx.db, (trx) => sendPhoneCode(ctx, trx, userId, phone, request));
}

/** Verifies the mobile phone with its SMS code and finishes the stage. */
export async function verifyPhone(
  ctx: AppContext,
  session: { id: string; userId: string },
  code: string,
  request: ProgressContext,
): Promise<Progress> {
  const { destination } = await verifyCode(ctx, session.userId, 'phone_verification', code);
  const { progress } = await finishStage(
    ctx,
    { ...request, userId: session.userId, sessionId: session.id },
    phoneVerificationStage,
    { phone: destination },
  );
  return progress;
}
