import type { AppContext } from '../../context.js';
import type { CredentialTable } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import type { LoginResult, ProgressContext } from '../auth/service.js';
import { advanceSession } from '../auth/service.js';
import { recognisedDevice } from '../devices/service.js';
import type { SessionMeta } from '../sessions/service.js';
import { openSession } from '../sessions/service.js';
import { findUserById } from '../users/repository.js';

/**
 * Signing in with a biometric key counts as the password step. A user-verifying key (biometrics
 * checked on the device — every key enrolled here is, enrolment requires it) also proves the second
 * factor: possession of the device plus the biometric check. The other stages still apply.
 */
export async function signInWithCredential(
  ctx: AppContext,
  credential: Pick<CredentialTable, 'id' | 'user_id' | 'user_verifying' | 'kind'>,
  userVerified: boolean,
  meta: SessionMeta & ProgressContext,
  deviceToken: string | undefined,
): Promise<LoginResult> {
  const user = await findUserById(ctx.db, credential.user_id);
  if (!user) throw new AppError('biometric_verification_failed');
  if (user.status === 'locked')
    throw new AppError('account_locked', { contactEmail: ctx.config.contactEmail });
  if (user.status === 'pending_validation') throw new AppError('account_pending_validation');
  const now = ctx.clock.now();
  await ctx.db
    .updateTable('credentials')
    .set({ last_used_at: now })
    .where('id', '=', credential.id)
    .execute();
  const trustedDeviceId = await recognisedDevice(ctx, user.id, deviceToken);
  const secondFactor = userVerified && credential.user_verifying === 1 ? now : null;
  const session = await openSession(
    ctx,
    user.id,
    'two_factor_authentication_required',
    meta,
    trustedDeviceId,
    secondFactor,
  );
  await recordAudit(ctx.db, ctx.clock, {
    action: 'login_biometric',
    actorId: user.id,
    targetId: user.id,
    ip: meta.ip,
    details: { kind: credential.kind },
  });
  const progress = await advanceSession(ctx, session.id, user.id, meta, { rotate: false });
  return { token: session.token, absoluteExpiresAt: session.absoluteExpiresAt, progress };
}
