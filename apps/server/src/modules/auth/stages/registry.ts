import type { Brand, ErrorCode, ErrorData, Language } from '@hygie/domain';
import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/connection.js';
import type { SessionRow, UserRow } from '../../../db/schema.js';
import { recordAudit } from '../../audit/service.js';
import { trustDevice } from '../../devices/service.js';
import { markSecondFactorPassed } from '../../sessions/service.js';
import { COMPLETE, mfaData } from '../../sessions/service.js';
import { loadSettings } from '../../settings/service.js';
import type { AppSettings } from '../../settings/service.js';
import {
  markEmailVerified,
  markPhoneVerified,
  recordConsent,
  setPassword,
} from '../../users/service.js';

export type PendingStage = Extract<
  ErrorCode,
  | 'two_factor_authentication_required'
  | 'email_not_verified'
  | 'mobile_phone_not_verified'
  | 'cgu_not_accepted'
  | 'password_expired'
  | 'password_creation_required'
>;
export type Stage = PendingStage | typeof COMPLETE;

export type StageUser = Pick<
  UserRow,
  | 'id'
  | 'email'
  | 'phone'
  | 'email_verified_at'
  | 'phone_verified_at'
  | 'profile'
  | 'cgu_version'
  | 'must_create_password'
  | 'password_changed_at'
  | 'totp_enabled_at'
  | 'recovery_codes_left'
>;
export type StageSession = Pick<SessionRow, 'mfa_verified_at' | 'trusted_device_id'>;

/** Who finishes a stage, from where (audit, trusted device, notices). */
export interface StageActor {
  userId: string;
  sessionId: string | null;
  ip: string | null;
  userAgent: string | null;
  /** The browser cookie's token, if any (the new-browser sign-in notice). */
  browserToken: string | null;
  /** The sealed identity a provider asserted, waiting to be linked once the sign-in completes. */
  pendingLink?: string | null;
  language: Language;
  brand: Brand;
}

/**
 * One post-login stage, the way Keycloak's required actions work: its error code, when it applies,
 * and what finishing it records (in the caller's transaction). The flow only walks the registry.
 */
export interface StageDefinition<Input, Outcome = void> {
  code: PendingStage;
  applies(user: StageUser, session: StageSession, settings: AppSettings, now: number): boolean;
  /** The `data` sent with the stage's code (what the screen needs to ask for it). */
  data?: (user: StageUser) => ErrorData<PendingStage>;
  complete(ctx: AppContext, trx: Db, actor: StageActor, input: Input): Promise<Outcome>;
}

/** Patients and professionals must have a verified mobile phone; operator accounts need not. */
export function phoneRequired(user: Pick<UserRow, 'profile'>): boolean {
  return user.profile !== null;
}

/** True when the password is older than the admin's PASSWORD_EXPIRATION_DELAY (off by default). */
export function passwordExpired(
  user: Pick<UserRow, 'password_changed_at'>,
  settings: Pick<AppSettings, 'PASSWORD_EXPIRATION_DELAY'>,
  now: number,
): boolean {
  const delay = settings.PASSWORD_EXPIRATION_DELAY;
  if (delay === null || user.password_changed_at === null) return false;
  return now >= user.password_changed_at + delay * 1000;
}

export const emailVerificationStage: StageDefinition<void> = {
  code: 'email_not_verified',
  applies: (user) => user.email_verified_at === null,
  complete: (ctx, trx, actor) => markEmailVerified(trx, actor.userId, ctx.clock.now()),
};

export interface SecondFactorInput {
  provider: 'totp' | 'email' | 'sms' | 'recovery_code';
  /** "Don't ask again on this device": trust this browser for TRUSTED_DEVICE_DAYS. */
  trustDevice: boolean;
}

export const secondFactorStage: StageDefinition<
  SecondFactorInput,
  { device: { token: string; expiresAt: number } | null }
> = {
  code: 'two_factor_authentication_required',
  applies: (_user, session) =>
    session.mfa_verified_at === null && session.trusted_device_id === null,
  data: mfaData,
  async complete(ctx, trx, actor, input) {
    if (!actor.sessionId) throw new Error('the second factor is passed by a session');
    let device: { id: string; token: string; expiresAt: number } | null = null;
    if (input.trustDevice) {
      const { TRUSTED_DEVICE_DAYS } = await loadSettings(ctx, trx);
      device = await trustDevice(ctx, trx, actor.userId, actor, TRUSTED_DEVICE_DAYS);
    }
    // RFC 8176: a one-time code by e-mail is `otp`, by SMS `sms`. The authenticator app's is `otp`
    // too in the ID token, but the session records `totp`: its level differs (docs/oidc.md). A
    // recovery code (a look-up secret held on paper, NIST 800-63B §5.1.2) has no RFC 8176 name:
    // `rec`, something held (assurance/level.ts).
    const method = { sms: 'sms', recovery_code: 'rec', totp: 'totp', email: 'otp' }[input.provider];
    // Sent together, in this order (db/transaction.ts).
    await Promise.all([
      markSecondFactorPassed(trx, actor.sessionId, ctx.clock.now(), device?.id ?? null, method),
      // A code received by e-mail proves the address: no separate verification needed.
      input.provider === 'email' ? emailVerificationStage.complete(ctx, trx, actor) : undefined,
      recordAudit(trx, ctx.clock, {
        action: 'second_factor_passed',
        actorId: actor.userId,
        targetId: actor.userId,
        ip: actor.ip,
        details: { channel: input.provider, trustedDevice: device !== null },
      }),
    ]);
    return { device: device && { token: device.token, expiresAt: device.expiresAt } };
  },
};

export const phoneVerificationStage: StageDefinition<{ phone: string }> = {
  code: 'mobile_phone_not_verified',
  applies: (user) => phoneRequired(user) && user.phone_verified_at === null,
  async complete(ctx, trx, actor, { phone }) {
    await markPhoneVerified(trx, actor.userId, phone, ctx.clock.now());
    await recordAudit(trx, ctx.clock, {
      action: 'phone_changed',
      actorId: actor.userId,
      targetId: actor.userId,
      ip: actor.ip,
      details: { via: 'sign_in' },
    });
  },
};

export const termsStage: StageDefinition<{ version: string; hash: string; language: string }> = {
  code: 'cgu_not_accepted',
  applies: (user, _session, settings) => user.cgu_version !== settings.CGU_VERSION,
  async complete(ctx, trx, actor, { version, hash, language }) {
    await recordConsent(ctx, trx, { userId: actor.userId, version, hash, language, ip: actor.ip });
    await recordAudit(trx, ctx.clock, {
      action: 'cgu_accepted',
      actorId: actor.userId,
      targetId: actor.userId,
      ip: actor.ip,
      details: { version, language },
    });
  },
};

export interface PasswordInput {
  passwordHash: string;
  /** The audit action: a renewal at sign-in, or the first password of an invited person. */
  action: 'password_renewed' | 'first_password_created';
}

async function completePassword(
  ctx: AppContext,
  trx: Db,
  actor: StageActor,
  input: PasswordInput,
): Promise<void> {
  await setPassword(trx, actor.userId, input.passwordHash, ctx.clock.now());
  await recordAudit(trx, ctx.clock, {
    action: input.action,
    actorId: actor.userId,
    targetId: actor.userId,
    ip: actor.ip,
  });
}

export const passwordCreationStage: StageDefinition<PasswordInput> = {
  code: 'password_creation_required',
  applies: (user) => user.must_create_password === 1,
  complete: completePassword,
};

export const passwordExpiryStage: StageDefinition<PasswordInput> = {
  code: 'password_expired',
  applies: (user, _session, settings, now) => passwordExpired(user, settings, now),
  complete: completePassword,
};

export type AnyStage = StageDefinition<never, unknown>;

/**
 * The sign-in state machine after the password (architecture §3), in its order. Account status
 * (locked, pending validation) is checked before any session exists.
 */
export const STAGES: readonly AnyStage[] = [
  secondFactorStage,
  emailVerificationStage,
  phoneVerificationStage,
  termsStage,
  passwordCreationStage,
  passwordExpiryStage,
];

/** The first stage of the registry that applies, or null when sign-in is complete. */
export function pendingStage(
  user: StageUser,
  session: StageSession,
  settings: AppSettings,
  now: number,
): AnyStage | null {
  return STAGES.find((stage) => stage.applies(user, session, settings, now)) ?? null;
}

/** The stage a session is at: the first pending one, or complete. */
export function nextStage(
  user: StageUser,
  session: StageSession,
  settings: AppSettings,
  now: number,
): Stage {
  return pendingStage(user, session, settings, now)?.code ?? COMPLETE;
}
