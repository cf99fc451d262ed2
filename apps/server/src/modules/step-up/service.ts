import type { Brand, Language } from '@hygie/domain';
import { normalizePassword } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { SessionRow, UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { checkSecondFactorCode, type SecondFactorProvider } from '../mfa/service.js';
import { mfaData, recordReauthentication, recordSecondFactorStepUp } from '../sessions/service.js';
import { Throttle } from '../throttle/service.js';
import { findUserById } from '../users/service.js';

/**
 * How long a proof of the user lasts for a sensitive change (security.md, NIST 800-63B §4.2.3's
 * reauthentication, ASVS V3): enrolling a passkey or the app's biometric key needs the password or
 * a second factor passed in the last 5 minutes. A stolen session alone is not enough.
 */
export const STEP_UP_WINDOW_MS = 5 * 60_000;

type ProvenSession = Pick<SessionRow, 'created_at' | 'mfa_verified_at' | 'reauthenticated_at'>;

/**
 * When the session's user last proved who they are: the sign-in that opened the session (a
 * password, a biometric key, a first-login link with its new password — rotation keeps the row),
 * the second factor, or a step-up.
 */
export function lastProofAt(session: ProvenSession): number {
  return Math.max(
    session.created_at,
    session.mfa_verified_at ?? 0,
    session.reauthenticated_at ?? 0,
  );
}

/**
 * A second factor passed in the window — at sign-in or again as a step-up — for the acts that cut
 * someone else's access (an admin's lock, disable, demotion, deletion): the password alone is not
 * enough there (ANS: a second factor for privileged actions). Refused with the user's channels.
 */
export function assertRecentSecondFactor(
  ctx: Pick<AppContext, 'clock'>,
  session: Pick<SessionRow, 'mfa_verified_at'>,
  user: Pick<
    UserRow,
    'id' | 'email' | 'phone' | 'phone_verified_at' | 'totp_enabled_at' | 'recovery_codes_left'
  >,
): void {
  if (
    session.mfa_verified_at === null ||
    ctx.clock.now() - session.mfa_verified_at > STEP_UP_WINDOW_MS
  ) {
    throw new AppError('second_factor_required', mfaData(user));
  }
}

/** The step-up by second factor: the code checked, the session proven for 5 minutes. */
export async function stepUpSecondFactor(
  ctx: AppContext,
  session: Pick<SessionRow, 'id' | 'user_id'>,
  input: { provider: SecondFactorProvider; code: string },
  request: { ip: string | null; language: Language; brand: Brand },
): Promise<void> {
  const { ip } = request;
  await checkSecondFactorCode(ctx, session.user_id, input, request);
  await recordSecondFactorStepUp(ctx, session.id);
  await recordAudit(ctx.db, ctx.clock, {
    action: 'second_factor_passed',
    actorId: session.user_id,
    targetId: session.user_id,
    ip,
    details: { channel: input.provider, stepUp: true },
  });
}

/**
 * The step-up of a route that takes the current password in its body (`currentPassword`): checked
 * when given (the session is then proven for 5 minutes), otherwise a proof in the window is needed.
 */
export async function proveNow(
  ctx: AppContext,
  session: SessionRow,
  currentPassword: string | undefined,
): Promise<void> {
  if (currentPassword === undefined) {
    assertRecentProof(ctx, session);
    return;
  }
  const user = await findUserById(ctx.db, session.user_id);
  if (!user) throw new AppError('not_logged_in');
  await checkCurrentPassword(ctx, user, currentPassword);
  await recordReauthentication(ctx, session.id);
}

/** Refuses a sensitive change on a session whose last proof is older than the window (403). */
export function assertRecentProof(ctx: Pick<AppContext, 'clock'>, session: ProvenSession): void {
  if (ctx.clock.now() - lastProofAt(session) > STEP_UP_WINDOW_MS) {
    throw new AppError('reauthentication_required');
  }
}

/**
 * The current password, checked under its own throttle (5 free tries, then slowed like a sign-in)
 * so that a stolen session cannot guess it at full speed; a wrong one changes nothing.
 */
export async function checkCurrentPassword(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'password_hash'>,
  password: string,
): Promise<void> {
  const right = await new Throttle(ctx.db, ctx.clock).checkCurrentPassword(user.id, () =>
    ctx.passwords.verify(user.password_hash, normalizePassword(password)),
  );
  if (!right) throw new AppError('wrong_current_password');
}

/** The step-up: the signed-in user re-enters the password; the session is proven for 5 minutes. */
export async function reauthenticate(
  ctx: AppContext,
  session: Pick<SessionRow, 'id' | 'user_id'>,
  password: string,
  ip: string | null,
): Promise<void> {
  const user = await findUserById(ctx.db, session.user_id);
  if (!user) throw new AppError('not_logged_in');
  await checkCurrentPassword(ctx, user, password);
  await recordReauthentication(ctx, session.id);
  await recordAudit(ctx.db, ctx.clock, {
    action: 'reauthenticated',
    actorId: user.id,
    targetId: user.id,
    ip,
  });
}
