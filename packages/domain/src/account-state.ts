/** Where the current visitor stands in the sign-in state machine (spec §4). */
export const AccountState = {
  LOGGED_IN: 'LOGGED_IN',
  NOT_LOGGED_IN: 'NOT_LOGGED_IN',
  MFA_REQUIRED: 'MFA_REQUIRED',
  EMAIL_VERIFICATION_REQUIRED: 'EMAIL_VERIFICATION_REQUIRED',
  MOBILE_PHONE_VERIFICATION_REQUIRED: 'MOBILE_PHONE_VERIFICATION_REQUIRED',
  CGU_CONSENT_REQUIRED: 'CGU_CONSENT_REQUIRED',
  PASSWORD_EXPIRED: 'PASSWORD_EXPIRED',
  PASSWORD_CREATION_REQUIRED: 'PASSWORD_CREATION_REQUIRED',
  UNKNOWN_ERROR: 'UNKNOWN_ERROR',
} as const;
export type AccountState = (typeof AccountState)[keyof typeof AccountState];

/** The states that force a screen until the pending stage is passed. */
export const PENDING_STATES: readonly AccountState[] = [
  AccountState.MFA_REQUIRED,
  AccountState.PASSWORD_EXPIRED,
  AccountState.PASSWORD_CREATION_REQUIRED,
  AccountState.EMAIL_VERIFICATION_REQUIRED,
  AccountState.MOBILE_PHONE_VERIFICATION_REQUIRED,
  AccountState.CGU_CONSENT_REQUIRED,
];
