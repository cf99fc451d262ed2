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
