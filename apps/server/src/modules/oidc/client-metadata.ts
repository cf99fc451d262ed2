import type { ClientMetadata } from 'oidc-provider';
import type { PlatformRow } from '../platforms/types.js';
import { parseUriList } from '../platforms/present.js';

/**
 * A platform as an OpenID Connect client: authorization code only, exact redirect URIs. A platform
 * with a secret authenticates with it (HTTP Basic or in the body — the provider accepts both for
 * `client_secret_basic`); one without is a public client (`none`, PKCE does the work).
 */
export function clientMetadataOf(platform: PlatformRow): ClientMetadata {
  const confidential = platform.client_secret_hash !== null;
  return {
    client_id: platform.client_id,
    // The SHA-256 of the secret: the provider compares hashes (see provider.ts).
    ...(confidential ? { client_secret: platform.client_secret_hash ?? '' } : {}),
    client_name: platform.name,
    client_uri: platform.url,
    ...(platform.logo_url ? { logo_uri: platform.logo_url } : {}),
    redirect_uris: parseUriList(platform.redirect_uris),
    post_logout_redirect_uris: parseUriList(platform.post_logout_redirect_uris),
    // Back-channel logout notices name the provider session (`sid`) as well as the user.
    ...(platform.backchannel_logout_uri
      ? {
          backchannel_logout_uri: platform.backchannel_logout_uri,
          backchannel_logout_session_required: true,
        }
      : {}),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    application_type: 'web',
  };
}
