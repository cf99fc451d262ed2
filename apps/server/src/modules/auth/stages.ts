import type { ErrorCode, MfaData } from '@hygie/domain';
import { maskEmail, maskPhone } from '@hygie/domain';
import type { SessionRow, UserRow } from '../../db/schema.js';
import type { AppSettings } from '../settings/service.js';
import { COMPLETE } from '../sessions/service.js';

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

/**
 * The sign-in state machine after the password (architecture §3), in its order: second factor
 * (unless the device is trusted), e-mail, mobile phone, terms, password. Account status (locked,
 * pending validation) is checked before any session exists.
 */
export function nextStage(
  user: Pick<
    UserRow,
    | 'email_verified_at'
    | 'phone_verified_at'
    | 'profile'
    | 'cgu_version'
    | 'must_create_password'
    | 'password_changed_at'
  >,
  session: Pick<SessionRow, 'mfa_verified_at' | 'trusted_device_id'>,
  settings: AppSettings,
  now: number,
): Stage {
  if (session.mfa_verified_at === null && session.trusted_device_id === null) {
    return 'two_factor_authentication_required';
  }
  if (user.email_verified_at === null) return 'email_not_verified';
  if (phoneRequired(user) && user.phone_verified_at === null) return 'mobile_phone_not_verified';
  if (user.cgu_version !== settings.CGU_VERSION) return 'cgu_not_accepted';
  if (user.must_create_password === 1) return 'password_creation_required';
  if (passwordExpired(user, settings, now)) return 'password_expired';
  return COMPLETE;
}

/** The `data` of two_factor_authentication_required: providers and masked hints (spec §3). */
export function mfaData(
  user: Pick<UserRow, 'id' | 'email' | 'phone' | 'phone_verified_at'>,
): MfaData {
  const sms = user.phone !== null && user.phone_verified_at !== null;
  return {
    user_identifier: user.id,
    two_factor_providers: sms ? ['email', 'sms'] : ['email'],
    email_hint: maskEmail(user.email),
    sms_hint: sms && user.phone ? maskPhone(user.phone) : null,
    sms_enabled: sms,
  };
}
