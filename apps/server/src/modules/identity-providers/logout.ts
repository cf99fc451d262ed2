import * as client from 'openid-client';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { IdentityProviderConfig } from '../../config.js';
import type { UpstreamSignIn } from '../sessions/service.js';
import { upstreamSignInOf } from '../sessions/service.js';
import { unavailable } from './service.js';
import { seal, unseal } from './transaction.js';
import { backoffRemaining, providerConfiguration, ProviderUnavailable } from './upstream.js';

/**
 * The logout at the upstream provider (OpenID Connect RP-Initiated Logout): when the portal signs
 * out a session opened through a provider, the browser goes on to the provider's
 * end_session_endpoint with the session's ID token as `id_token_hint`, and comes back to
 * `/api/idp/<id>/logged-out`, which sends it where the portal's logout would have.
 * docs/identity-providers.md tells the whole story.
 */

/** How long the provider has to send the browser back after its logout. */
export const LOGOUT_TTL_MS = 5 * 60_000;

/** What the browser keeps (sealed, HttpOnly) while it is at the provider's logout. */
interface LogoutHandoff {
  provider: string;
  /** The `state` sent to the provider, which must come back with the browser. */
  state: string;
  /** Where the portal's logout would have sent the browser (already checked then). */
  target: string;
  expiresAt: number;
}

const handoffSchema = z.object({
  provider: z.string(),
  state: z.string(),
  target: z.string(),
  expiresAt: z.number(),
});

/** The post-logout redirect URI to register at the provider: PUBLIC_URL + /api/idp/<id>/logged-out. */
export function loggedOutUrl(
  ctx: AppContext,
  provider: Pick<IdentityProviderConfig, 'id'>,
): string {
  return new URL(`/api/idp/${provider.id}/logged-out`, ctx.config.publicUrl).href;
}

/**
 * The provider this browser's session was opened through, with its ID token — read before the
 * session ends. Null for a session opened otherwise, expired, or of a provider no longer
 * configured.
 */
export async function upstreamSignInToEnd(
  ctx: AppContext,
  sessionToken: string | undefined,
): Promise<UpstreamSignIn | null> {
  const signIn = await upstreamSignInOf(ctx, sessionToken);
  if (!signIn) return null;
  return ctx.config.identityProviders.some((p) => p.id === signIn.provider) ? signIn : null;
}

/**
 * Where the browser goes to end its session at the provider, and the sealed handoff it keeps
 * meanwhile; null when the provider has no end_session_endpoint, cannot be reached, or is in its
 * failure back-off (the portal's logout is then complete as it is: never blocked by a provider).
 */
export async function upstreamLogout(
  ctx: AppContext,
  signIn: UpstreamSignIn,
  finalTarget: string,
  ip: string | null,
): Promise<{ url: string; handoff: string } | null> {
  const provider = ctx.config.identityProviders.find((p) => p.id === signIn.provider);
  if (!provider || backoffRemaining(ctx, provider.id) > 0) return null;
  let configuration: client.Configuration;
  try {
    configuration = await providerConfiguration(ctx, provider);
  } catch (err) {
    if (!(err instanceof ProviderUnavailable)) throw err;
    await unavailable(ctx, provider, err, ip, 'logout');
    return null;
  }
  if (!configuration.serverMetadata().end_session_endpoint) return null;
  const handoff: LogoutHandoff = {
    provider: provider.id,
    state: client.randomState(),
    target: finalTarget,
    expiresAt: ctx.clock.now() + LOGOUT_TTL_MS,
  };
  const url = client.buildEndSessionUrl(configuration, {
    id_token_hint: signIn.idToken,
    post_logout_redirect_uri: loggedOutUrl(ctx, provider),
    state: handoff.state,
  });
  return { url: url.href, handoff: seal(ctx.secret, 'logout', handoff) };
}

/**
 * The provider sent the browser back from its logout: the target the portal's logout chose, when
 * the handoff is this provider's, unexpired, with the same state; null otherwise (a replay, a
 * forged or stale return: the caller sends the browser to the sign-in page, nothing else).
 */
export function targetAfterUpstreamLogout(
  ctx: AppContext,
  providerId: string,
  state: string | undefined,
  sealed: string | undefined,
): string | null {
  const handoff = unseal(ctx.secret, 'logout', handoffSchema, sealed);
  if (
    !handoff ||
    handoff.provider !== providerId ||
    state === undefined ||
    handoff.state !== state ||
    handoff.expiresAt <= ctx.clock.now()
  ) {
    return null;
  }
  return handoff.target;
}
