/**
 * Why a sign-in with an upstream identity provider (Pro Santé Connect, FranceConnect) came back to
 * the login page without a session: the `idp_error` query parameter (docs/identity-providers.md).
 */
export const IDP_ERRORS = [
  /** The provider could not be reached in time (discovery, token or userinfo call). */
  'identity_provider_unavailable',
  /** The person cancelled at the provider (`error=access_denied`). */
  'cancelled',
  /** The provider refused, or answered something the portal could not verify. */
  'refused',
  /** The provider's identity is linked to no account yet. */
  'not_linked',
  /** The linked account may not sign in. */
  'account_locked',
  'account_disabled',
  'account_pending_validation',
] as const;

export type IdpError = (typeof IDP_ERRORS)[number];

/**
 * Why a provider sign-in was started (`GET /api/idp/<provider>/start?intent=`): to sign in (the
 * login page's buttons), or to register (the registration choice screen's), where an identity
 * linked to no account goes straight to the registration pre-filled with it, and a failure comes
 * back to the choice screen rather than the login page; or to raise the signed-in session's level
 * (`step_up`: the identity must be linked to the session's own account, docs/api.md).
 */
export const IDP_INTENTS = ['sign_in', 'register', 'step_up'] as const;

export type IdpIntent = (typeof IDP_INTENTS)[number];
