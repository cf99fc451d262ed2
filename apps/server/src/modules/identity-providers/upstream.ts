import * as client from 'openid-client';
import type { AppContext } from '../../context.js';
import type { IdentityProviderConfig } from '../../config.js';

/** A provider that could not be reached in time, or answered like a server in trouble. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly step: 'discovery' | 'token' | 'userinfo',
    options: { cause: unknown },
  ) {
    super(`identity provider unavailable at ${step}`, options);
  }
}

/** A provider's answer the portal refuses (an error it sent, a token that does not verify). */
export class ProviderRefused extends Error {
  constructor(
    readonly step: 'token' | 'userinfo',
    options: { cause: unknown },
  ) {
    super(`identity provider answer refused at ${step}`, options);
  }
}

/** How long a provider's discovered metadata is reused before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60_000;

interface Discovery {
  configuration: client.Configuration;
  at: number;
}
type Discovered = Map<string, Discovery>;

const discovered = new WeakMap<AppContext, Discovered>();

/**
 * The provider's metadata (OpenID discovery), kept an hour per app. The calls it makes after are
 * bound by IDP_TIMEOUT_MS; plain http is allowed only outside production (config refuses it).
 */
export async function providerConfiguration(
  ctx: AppContext,
  provider: IdentityProviderConfig,
): Promise<client.Configuration> {
  const cache = discovered.get(ctx) ?? new Map<string, Discovery>();
  discovered.set(ctx, cache);
  const now = ctx.clock.now();
  const cached = cache.get(provider.id);
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
  let configuration: client.Configuration;
  try {
    configuration = await client.discovery(
      provider.issuer,
      provider.clientId,
      undefined,
      client.ClientSecretPost(provider.clientSecret),
      {
        timeout: ctx.config.identityProviderTimeoutMs / 1000,
        ...(provider.issuer.protocol === 'http:'
          ? { execute: [client.allowInsecureRequests] }
          : {}),
      },
    );
  } catch (err) {
    throw new ProviderUnavailable('discovery', { cause: err });
  }
  cache.set(provider.id, { configuration, at: now });
  return configuration;
}

/**
 * How long a provider that just failed (discovery, token or userinfo call unavailable) is left
 * alone: sign-ins started meanwhile answer identity_provider_unavailable at once, with the time
 * left as Retry-After, instead of each waiting for the provider and writing an audit row.
 * Per process (each node finds out for itself), on the app's clock.
 */
export const FAILURE_BACKOFF_MS = 30_000;

/** Per app: until when each provider that failed is left alone. */
const backoffs = new WeakMap<AppContext, Map<string, number>>();

/** The time left in a provider's back-off window, in milliseconds (0: none, ask it). */
export function backoffRemaining(ctx: AppContext, providerId: string): number {
  const until = backoffs.get(ctx)?.get(providerId);
  return until === undefined ? 0 : Math.max(0, until - ctx.clock.now());
}

/**
 * A provider failed: opens its back-off window unless one is open already. True when this
 * failure opened it (the one the audit trail records for the window).
 */
export function openBackoff(ctx: AppContext, providerId: string): boolean {
  if (backoffRemaining(ctx, providerId) > 0) return false;
  const windows = backoffs.get(ctx) ?? new Map<string, number>();
  backoffs.set(ctx, windows);
  windows.set(providerId, ctx.clock.now() + FAILURE_BACKOFF_MS);
  return true;
}

/** Forgets a provider's metadata (after a failure: the next attempt discovers it again). */
export function forgetConfiguration(ctx: AppContext, providerId: string): void {
  discovered.get(ctx)?.delete(providerId);
}

/**
 * Whether a failed call means the provider is unavailable rather than refusing: the network
 * failed or timed out, or it answered with a server error or something that is not OAuth.
 */
export function isUnavailability(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; depth++) {
    if (e instanceof TypeError) return true;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (e instanceof client.ResponseBodyError) return e.status >= 500;
    if (e instanceof client.ClientError) {
      const code = e.code;
      if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
        return true;
      }
    }
    e = e.cause;
  }
  return false;
}
