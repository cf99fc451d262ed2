/**
 * Every action the audit trail records (issue #14), snake_case and in the past tense. The server
 * records only these (its `recordAudit` is typed with them); the admin area translates each one
 * under `admin:events.<action>`. docs/security.md says when each is written, by whom, with what.
 */
export const AUDIT_ACTIONS = [
  // Sign-in
  'login',
  'login_biometric',
  'login_failed',
  'login_identity_provider',
  'identity_provider_failed',
  'identity_linked',
  'identity_link_refused',
  'identity_unlinked',
  'second_factor_sent',
  'second_factor_failed',
  'second_factor_passed',
  'sign_in_completed',
  'reauthenticated',
  'totp_enrolment_started',
  'totp_enabled',
  'totp_removed',
  'recovery_codes_generated',
  'recovery_code_used',
  // Password
  'password_changed',
  'password_expired',
  'password_renewed',
  'password_reset',
  'first_password_created',
  // Account and contact details
  'registered',
  'registration_identifier_in_use',
  'user_invited',
  'cgu_accepted',
  'profile_updated',
  'identity_corrected',
  'email_changed',
  'phone_changed',
  'account_locked_by_user',
  'data_exported',
  // Browsers and keys
  'trusted_device_added',
  'trusted_device_revoked',
  'biometric_enrolled',
  'biometric_invalidated',
  'biometric_revoked',
  // Platforms (OpenID Connect)
  'platform_enabled_by_user',
  'platform_access_requested',
  'platform_sign_in_denied',
  'oidc_consent_given',
  'oidc_consent_refused',
  'oidc_grant_revoked',
  'refresh_token_reused',
  'backchannel_logout_queued',
  'backchannel_logout_sent',
  'backchannel_logout_failed',
  // Admin actions on an account
  'account_validated',
  'account_rejected',
  'account_locked',
  'account_unlocked',
  'account_disabled',
  'account_enabled',
  'sessions_ended',
  'password_reset_sent',
  'invitation_resent',
  'role_changed',
  'account_deleted',
  'platform_access_enabled',
  'platform_access_disabled',
  // Admin actions on the service
  'admin_bootstrapped',
  'setting_changed',
  'setting_reset',
  'terms_published',
  'platform_created',
  'platform_updated',
  'platform_deleted',
  'oidc_keys_rotated',
  'message_retried',
  'audit_exported',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Why a sign-in failed, as its `login_failed` event says (never what was typed). */
export const SIGN_IN_FAILURE_REASONS = [
  'bad_credentials',
  'account_locked',
  'account_disabled',
  'account_pending_validation',
  'throttled',
] as const;

export type SignInFailureReason = (typeof SIGN_IN_FAILURE_REASONS)[number];
