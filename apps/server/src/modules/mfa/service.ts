import type { CodeSent } from '@hygie/domain';
import { transaction } from '../../db/transaction.js';
import { isOneOf } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { Metrics } from '../../lib/metrics.js';
import type { Progress, ProgressContext } from '../auth/service.js';
import { finishStage, secondFactorStage } from '../auth/service.js';
import { CODE_REFUSALS, queueCode, verifyCode } from '../codes/service.js';
import { useRecoveryCode } from '../recovery-codes/service.js';
import { verifyTotpCode } from '../totp/service.js';
import { findUserById } from '../users/service.js';

export type SecondFactorProvider = 'totp' | 'email' | 'sms' | 'recovery_code';
/** The second factors whose code the portal sends. */
export type SentCodeProvider = Exclude<SecondFactorProvider, 'totp' | 'recovery_code'>;

const PURPOSE = { email: 'mfa_email', sms: 'mfa_sms' } as const;

/** A refusal of a code: the sent codes' ones, the authenticator app's replay, a used recovery code. */
const REFUSALS = [...CODE_REFUSALS, 'code_already_used', 'recovery_code_already_used'] as const;

/** Sends a second-factor code by e-mail, or by SMS to a verified phone only. */
export async function sendSecondFactorCode(
  ctx: AppContext,
  userId: string,
  provider: SentCodeProvider,
  request: Pick<ProgressContext, 'language' | 'brand' | 'ip'>,
): Promise<CodeSent> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  const sms = provider === 'sms';
  if (sms && (!user.phone || user.phone_verified_at === null)) {
    throw new AppError('validation_error', {
      fields: [{ path: 'provider', message: 'phone_invalid' }],
    });
  }
  const sent = await transaction(ctx.db, async (trx) => {
    const queued = await queueCode(ctx, trx, {
      userId: user.id,
      purpose: PURPOSE[provider],
      channel: provider,
      destination: sms ? (user.phone ?? '') : user.email,
      template: 'mfa_code',
      language: request.language,
      brand: request.brand,
    });
    await recordAudit(trx, ctx.clock, {
      action: 'second_factor_sent',
      actorId: user.id,
      targetId: user.id,
      ip: request.ip,
      details: { channel: provider },
    });
    return queued;
  });
  ctx.metrics.secondFactors.inc({ channel: provider, outcome: 'sent' });
  return sent;
}

/**
 * Checks a second-factor code — sent by e-mail or SMS, of the authenticator app, or a recovery code
 * (counted in the metrics; a refusal is audited), at the sign-in stage or for a step-up. Throws the
 * code's refusal. For a recovery code, returns how many the account has left (null otherwise).
 */
export async function checkSecondFactorCode(
  ctx: AppContext,
  userId: string,
  input: { provider: SecondFactorProvider; code: string },
  request: Pick<ProgressContext, 'language' | 'brand' | 'ip'>,
): Promise<number | null> {
  const { ip } = request;
  let recoveryCodesLeft: number | null = null;
  try {
    if (input.provider === 'totp') await verifyTotpCode(ctx, userId, input.code);
    else if (input.provider === 'recovery_code') {
      recoveryCodesLeft = await useRecoveryCode(ctx, userId, input.code, request);
    } else await verifyCode(ctx, userId, PURPOSE[input.provider], input.code);
  } catch (err) {
    ctx.metrics.secondFactors.inc({ channel: input.provider, outcome: Metrics.outcomeOf(err) });
    if (isAppError(err) && isOneOf(REFUSALS, err.code)) {
      await recordAudit(ctx.db, ctx.clock, {
        action: 'second_factor_failed',
        actorId: userId,
        targetId: userId,
        ip,
        details: { channel: input.provider, reason: err.code },
      });
    }
    throw err;
  }
  ctx.metrics.secondFactors.inc({ channel: input.provider, outcome: 'passed' });
  return recoveryCodesLeft;
}

/**
 * Checks the second-factor code and finishes the stage; when asked, this browser becomes trusted
 * (the device token to set as a cookie comes back). After a recovery code, how many are left.
 */
export async function verifySecondFactor(
  ctx: AppContext,
  session: { id: string; userId: string },
  input: { provider: SecondFactorProvider; code: string; trustDevice?: boolean },
  request: ProgressContext,
): Promise<{
  progress: Progress;
  device: { token: string; expiresAt: number } | null;
  recoveryCodesLeft: number | null;
}> {
  const recoveryCodesLeft = await checkSecondFactorCode(ctx, session.userId, input, request);
  const { progress, outcome } = await finishStage(
    ctx,
    { ...request, userId: session.userId, sessionId: session.id },
    secondFactorStage,
    { provider: input.provider, trustDevice: input.trustDevice ?? false },
  );
  return { progress, device: outcome.device, recoveryCodesLeft };
}
