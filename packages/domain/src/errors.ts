import { AccountState } from './account-state.js';

interface ErrorSpec {
  readonly status: number;
  /** The account state a response carrying this code implies (spec §4), if any. */
  readonly state?: AccountState;
}

/**
 * The error-code catalogue shared by server and web: code → HTTP status (+ account state).
 * The code is also the translation key of the message on both sides.
 */
export const ERRORS = {
  // Sign-in stages (architecture §3); the account state drives the navigation guard.
  not_logged_in: { status: 401, state: AccountState.NOT_LOGGED_IN },
  session_expired: { status: 401, state: AccountState.NOT_LOGGED_IN },
  two_factor_authentication_required: { status: 401, state: AccountState.MFA_REQUIRED },
  email_not_verified: { status: 403, state: AccountState.EMAIL_VERIFICATION_REQUIRED },
  mobile_phone_not_verified: {
    status: 403,
    state: AccountState.MOBILE_PHONE_VERIFICATION_REQUIRED,
  },
  cgu_not_accepted: { status: 403, state: AccountState.CGU_CONSENT_REQUIRED },
  password_expired: { status: 403, state: AccountState.PASSWORD_EXPIRED },
  password_creation_required: { status: 403, state: AccountState.PASSWORD_CREATION_REQUIRED },

  // Login (spec §8).
  invalid_email: { status: 400 },
  invalid_password: { status: 400 },
  bad_credentials: { status: 401 },
  /** A mobile number verified on several accounts (a family phone) names none of them. */
  phone_shared_by_accounts: { status: 409 },
  account_locked: { status: 423 },
  account_pending_validation: { status: 403 },
  account_disabled: { status: 403 },
  too_many_attempts: { status: 429 },
  identity_provider_unavailable: { status: 503 },
  /** A provider's callback without the sign-in it answers (state unknown, expired or used). */
  identity_provider_sign_in_invalid: { status: 400 },

  // Passwords.
  password_must_differ: { status: 400 },
  password_too_weak: { status: 400 },
  password_too_common: { status: 400 },
  passwords_do_not_match: { status: 400 },
  wrong_current_password: { status: 400 },
  /** A sensitive change needs the password re-entered (or a second factor) in the last 5 minutes. */
  reauthentication_required: { status: 403 },
  second_factor_required: { status: 403 },

  // One-time codes and links.
  wait_before_retry: { status: 429 },
  too_many_trials: { status: 400 },
  wrong_code: { status: 400 },
  code_expired: { status: 400 },
  code_invalid: { status: 400 },
  code_already_sent: { status: 429 },
  /** An authenticator app's code accepted already: each code once (wait for the next one). */
  code_already_used: { status: 400 },
  /** An authenticator app is enrolled already: remove it before enrolling another. */
  totp_already_enabled: { status: 409 },
  /** A recovery code used already: each is accepted once. */
  recovery_code_already_used: { status: 400 },
  link_expired: { status: 400 },

  // Registration.
  email_already_used: { status: 409 },
  registration_failed: { status: 503 },

  // Biometrics.
  biometric_verification_failed: { status: 401 },
  biometric_key_invalidated: { status: 401 },
  biometric_enrolment_failed: { status: 400 },

  // Settings (admin).
  settings_load_failed: { status: 500 },
  settings_update_failed: { status: 400 },
  settings_reset_failed: { status: 400 },

  // Platforms.
  access_denied: { status: 403 },

  // Levels of assurance (docs/oidc.md).
  /** The account area needs a higher level than the session's: `data.level`, the one required. */
  assurance_level_required: { status: 403 },
  /** An operator's mapping of methods to levels that does not hold together. */
  assurance_mapping_invalid: { status: 400 },

  // Messages (admin).
  message_not_retryable: { status: 409 },
  last_admin: { status: 409 },
  last_sign_in_method: { status: 409 },
  /** A terms version is published once; its text never changes. */
  terms_version_exists: { status: 409 },
  /** A terms version cannot take effect before the date of the version in force. */
  terms_date_too_early: { status: 409 },
  /** The terms text the user read is not the one in force (a new version, or another text). */
  terms_changed: { status: 409 },
  account_state_conflict: { status: 409 },

  // Requests.
  validation_error: { status: 400 },
  /** A page cursor that this list did not give (altered, or from another search). */
  invalid_cursor: { status: 400 },
  invalid_json: { status: 400 },
  unsupported_media_type: { status: 415 },
  payload_too_large: { status: 413 },
  csrf_token_invalid: { status: 403 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  too_many_requests: { status: 429 },
  service_unavailable: { status: 503 },
  unknown_error: { status: 500 },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERRORS).filter(isErrorCode);

/** True when `code` is in the catalogue. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, code);
}

/** HTTP status of a catalogue code. */
export function statusOf(code: ErrorCode): number {
  return ERRORS[code].status;
}

/** The account state a code implies, or undefined when it implies none (spec §4). */
export function accountStateOf(code: unknown): AccountState | undefined {
  if (!isErrorCode(code)) return undefined;
  const spec: ErrorSpec = ERRORS[code];
  return spec.state;
}
