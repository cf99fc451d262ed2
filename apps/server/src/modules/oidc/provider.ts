import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import Provider, { interactionPolicy } from 'oidc-provider';
import type { Client, ErrorOut, FindAccount, Grant, KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import { BRAND_NAMES, DEFAULT_BRAND } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../db/errors.js';
import { hashToken, hmac, safeEqual } from '../../lib/tokens.js';
import type { RequireSession } from '../../plugins/authenticate.js';
import type { CookiePolicy } from '../../plugins/cookies.js';
import {
  isRegisteredBackchannelUri,
  minimumLevelOf,
  platformAccessForClient,
} from '../platforms/service.js';
import { findUserById } from '../users/service.js';
import {
  LOGOUT_TTL_MS,
  upstreamLogout,
  upstreamSignInToEnd,
} from '../identity-providers/logout.js';
import { adapterFactory } from './adapter.js';
import { auditProviderEvents } from './audit-events.js';
import { meetsLevel } from '@hygie/domain';
import { levelOfSession } from '../assurance/service.js';
import { ACR_VALUES_SUPPORTED, acrFor, amrOf, levelNeeded, requestedAcrs } from './assurance.js';
import { claimsOf, SCOPE_CLAIMS, SCOPES } from './claims.js';
import { ID_TOKEN_TTL_SECONDS, JWKS_CACHE_SECONDS, loadSigningKeys } from './keys.js';
import { logoutPage, pageLanguage } from './pages.js';
import { completeSession, endPortalAndProviderSessions, portalUserId } from './portal.js';

/** Where the provider is mounted: the issuer is `${PUBLIC_URL}/oidc`. */
/** An introspection answer that says a user's token is active. */
const activeToken = z.object({ active: z.literal(true), sub: z.string(), client_id: z.string() });

/** The part of a `claims` parameter the portal reads: the ID token's `acr` request. */
const acrClaimRequest = z.object({
  id_token: z.object({ acr: z.record(z.string(), z.unknown()).nullable().optional() }),
});

const TEMPORARILY_UNAVAILABLE = {
  error: 'temporarily_unavailable',
  error_description: 'the service is temporarily unavailable, try again shortly',
};

export const OIDC_PREFIX = '/oidc';

export interface OidcDeps {
  ctx: AppContext;
  cookies: CookiePolicy;
  requireSession: RequireSession;
  log: FastifyBaseLogger;
}

export interface OidcProvider {
  provider: Provider;
  /** The Fastify request behind a raw request handed to the provider (portal session lookups). */
  requests: WeakMap<IncomingMessage, FastifyRequest>;
}

/** The portal's page for an OAuth error the browser sees (the SPA's /oauth-error). */
export function oauthErrorUrl(publicUrl: URL, params: Record<string, string>): string {
  const url = new URL('/oauth-error', publicUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

/**
 * The OpenID Connect provider: authorization code + PKCE (S256) only, exact redirect URIs,
 * rotating refresh tokens, RP-initiated logout; storage, clients and keys in the database.
 */
export async function createOidcProvider(deps: OidcDeps): Promise<OidcProvider> {
  const { ctx, cookies, requireSession, log } = deps;
  const { db, config } = ctx;
  const requests = new WeakMap<IncomingMessage, FastifyRequest>();
  const keys = await loadSigningKeys(db, ctx.clock.now());

  // A portal session that is complete and belongs to the provider session's user.
  async function portalSession(koa: KoaContextWithOIDC) {
    const request = requests.get(koa.req);
    return request ? await completeSession(requireSession, request) : null;
  }

  async function mayUse(clientId: string, userId: string): Promise<boolean> {
    return (await platformAccessForClient(ctx, clientId, userId))?.usable ?? false;
  }

  const findAccount: FindAccount = async (koa, sub, token) => {
    const user = await findUserById(db, sub);
    if (!user || user.status !== 'active') return undefined;
    // With a token (code exchange, refresh, userinfo) the access rule is checked again: an admin's
    // "disabled" stops the platform's next request, not only the next sign-in.
    const clientId = token?.clientId ?? koa.oidc.client?.clientId;
    if (token && (!clientId || !(await mayUse(clientId, sub)))) return undefined;
    return { accountId: sub, claims: () => claimsOf(user) };
  };

  // Every authorization asks the portal: unless the portal session is complete, is the provider
  // session's user, may use this platform, has the level the platform needs (its minimum, and
  // what acr_values or an essential acr claim ask for) and the provider session says that level
  // and those methods, the interaction runs (and sends the browser to the portal's sign-in,
  // second factor, step-up or /oauth-error). Only the resume of an interaction just decided passes.
  const policy = interactionPolicy.base();
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'portal_session',
      'the portal session and the platform access rule decide',
      'login_required',
      async (koa) => {
        if (koa.oidc.result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        const accountId = koa.oidc.session?.accountId;
        const clientId = koa.oidc.client?.clientId;
        const session = await portalSession(koa);
        const userId = session?.user_id;
        if (!session || !userId || userId !== accountId || !clientId) {
          return interactionPolicy.Check.REQUEST_PROMPT;
        }
        const access = await platformAccessForClient(ctx, clientId, userId);
        if (!access?.usable) return interactionPolicy.Check.REQUEST_PROMPT;
        const params = koa.oidc.params ?? {};
        const level = await levelOfSession(ctx, session);
        const needed = levelNeeded(minimumLevelOf(access.platform), params);
        if (needed && !meetsLevel(level, needed)) return interactionPolicy.Check.REQUEST_PROMPT;
        // A level or methods changed since the provider session was written (a step-up), or
        // another value asked for: the interaction writes them anew, so the ID token says them.
        const acr = acrFor(level, requestedAcrs(params));
        const amr = amrOf(session);
        const provider = koa.oidc.session;
        if (provider?.acr !== acr || JSON.stringify(provider.amr ?? []) !== JSON.stringify(amr)) {
          return interactionPolicy.Check.REQUEST_PROMPT;
        }
        return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      },
    ),
    0,
  );

  // First-party platforms get what they ask for without a consent screen.
  async function loadExistingGrant(koa: KoaContextWithOIDC): Promise<Grant | undefined> {
    const { oidc } = koa;
    const clientId = oidc.client?.clientId;
    const accountId = oidc.session?.accountId;
    if (!clientId || !accountId) return undefined;
    const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
    let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
    if (grant && (grant.accountId !== accountId || grant.clientId !== clientId)) grant = undefined;
    const access = await platformAccessForClient(ctx, clientId, accountId);
    if (!access || access.platform.first_party !== 1) return grant;
    grant ??= new oidc.provider.Grant({ accountId, clientId });
    const scope = [...oidc.requestParamOIDCScopes].join(' ');
    if (scope) grant.addOIDCScope(scope);
    if (oidc.requestParamClaims?.size) grant.addOIDCClaims([...oidc.requestParamClaims]);
    await grant.save();
    return grant;
  }

  const provider = new Provider(new URL(OIDC_PREFIX, config.publicUrl).href, {
    adapter: adapterFactory(db, {
      refreshReuseGraceMs: config.oidc.refreshReuseGraceSeconds * 1000,
    }),
    clients: [],
    findAccount,
    jwks: { keys },
    scopes: SCOPES,
    acrValues: [...ACR_VALUES_SUPPORTED],
    claims: { sid: null, iss: null, ...SCOPE_CLAIMS },
    responseTypes: ['code'],
    // S256 is the only method oidc-provider 9 knows; PKCE is required of every client.
    pkce: { required: () => true },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256'],
      userinfoSigningAlgValues: ['RS256'],
      introspectionSigningAlgValues: ['RS256'],
      authorizationSigningAlgValues: ['RS256'],
    },
    allowOmittingSingleRegisteredRedirectUri: false,
    // The provider refuses to call private and loopback addresses (SSRF). The only addresses it
    // calls here are back-channel logout URIs an admin registered — often on the platforms'
    // internal network — so those are reached as registered; anything else keeps the guard.
    fetch: async (input: string | URL | Request, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      if (!init || !(await isRegisteredBackchannelUri(ctx, url))) return fetch(input, init);
      // What the logout POST sets, without the guarding dispatcher.
      const { method, headers, body, redirect, signal } = init;
      return fetch(input, { method, headers, body, redirect, signal });
    },
    // Browser-based platforms (public clients) may call the token endpoint from their own origin.
    clientBasedCORS: (_koa: KoaContextWithOIDC, origin: string, client: Client) =>
      (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
    // Every code exchange gets a refresh token; without offline_access it dies with the session.
    issueRefreshToken: (_koa: KoaContextWithOIDC, client: Client) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 900,
      IdToken: ID_TOKEN_TTL_SECONDS,
      Interaction: 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
      Session: config.session.absoluteSeconds,
    },
    cookies: {
      names: {
        session: 'hygie_oidc_session',
        interaction: 'hygie_oidc_interaction',
        resume: 'hygie_oidc_resume',
      },
      keys: [hmac(ctx.secret, 'oidc-provider cookies')],
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    interactions: {
      policy,
      url: (_koa: KoaContextWithOIDC, interaction: { uid: string }) =>
        `${OIDC_PREFIX}/interaction/${interaction.uid}`,
    },
    loadExistingGrant,
    features: {
      devInteractions: { enabled: false },
      // oidc-provider 9 turns DPoP on by default; platforms use bearer tokens, as with 8.
      dPoP: { enabled: false },
      revocation: { enabled: true },
      // A platform introspects its own tokens only: another platform learns nothing of them.
      introspection: {
        enabled: true,
        allowedPolicy: (_koa: KoaContextWithOIDC, client: Client, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      // The `claims` parameter, for one use: an essential `acr` in the ID token (OIDC Core
      // §5.5.1.1), a level the platform requires like `acr_values`. Every other claim it names is
      // dropped: what a platform gets stays what its scopes and consent release.
      claimsParameter: {
        enabled: true,
        assertClaimsParameter: (koa: KoaContextWithOIDC, claims: unknown) => {
          const acr = acrClaimRequest.safeParse(claims);
          const { params } = koa.oidc;
          if (!params) return;
          params.claims =
            acr.success && acr.data.id_token.acr
              ? JSON.stringify({ id_token: { acr: acr.data.id_token.acr } })
              : undefined;
        },
      },
      // Platforms with a back-channel logout URI are told when the user's session ends: by
      // RP-initiated logout here, by the portal's sign-out, lock or reset through the outbox.
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (koa: KoaContextWithOIDC, form: string) => {
          const language = pageLanguage(koa.oidc.params?.ui_locales, koa.get('accept-language'));
          koa.type = 'html';
          koa.body = logoutPage(language, BRAND_NAMES[DEFAULT_BRAND], form);
        },
        postLogoutSuccessSource: (koa: KoaContextWithOIDC) => {
          koa.status = 303;
          koa.redirect(new URL('/security/login', config.publicUrl).href);
        },
      },
    },
    // Errors a browser sees go to the portal's translated page, never a provider page.
    renderError: (koa: KoaContextWithOIDC, out: ErrorOut, err: unknown) => {
      const params: Record<string, string> = isDatabaseUnavailable(err)
        ? { ...TEMPORARILY_UNAVAILABLE }
        : { error: out.error };
      if (out.error_description && !isDatabaseUnavailable(err)) {
        params.error_description = out.error_description.slice(0, 200);
      }
      koa.status = 303;
      koa.redirect(oauthErrorUrl(config.publicUrl, params));
    },
  });
  provider.proxy = true;

  // Secrets are stored as SHA-256; the presented secret is hashed and compared in constant time.
  const compare = (stored: string | undefined, presented: unknown) =>
    typeof stored === 'string' &&
    typeof presented === 'string' &&
    safeEqual(hashToken(presented), stored);
  provider.Client.prototype.compareClientSecret = function (this: Client, actual) {
    return compare(this.clientSecret, actual);
  };

  // oidc-provider 9 no longer answers unknown paths itself (Koa's bare 404 would); answer as 8 did:
  // an invalid_request, as JSON for programs and on the portal's error page for browsers.
  provider.use(async (koa, next) => {
    await next();
    if (koa.status !== 404 || koa.message !== 'Not Found') return;
    const error = {
      error: 'invalid_request',
      error_description: 'unrecognized route or not allowed method',
    };
    if (koa.accepts('json', 'html') === 'html') {
      koa.status = 303;
      koa.redirect(oauthErrorUrl(config.publicUrl, error));
    } else {
      koa.status = 404;
      koa.body = error;
    }
  });

  // RP-initiated logout signs the user out of the portal too (single sign-out) — when the provider
  // session it ended is the portal user's. (The provider also ends a session this way when another
  // user signed in to the portal in the same browser: that user stays signed in.)
  provider.use(async (koa: KoaContextWithOIDC, next) => {
    await next();
    const ended =
      koa.oidc?.route === 'end_session_confirm' && koa.oidc.params?.logout && koa.status === 303;
    const request = ended ? requests.get(koa.req) : undefined;
    const accountId = koa.oidc?.session?.accountId;
    if (!request || !accountId) return;
    const token = request.cookies[cookies.sessionCookie];
    if ((await portalUserId(ctx, request, token)) !== accountId) return;
    // Read before the session ends: the upstream provider it was opened through, if any.
    const upstream = await upstreamSignInToEnd(ctx, token);
    await endPortalAndProviderSessions(ctx, request, token);
    const cookieOptions = {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: cookies.secure,
      signed: false,
      overwrite: true,
    } as const;
    koa.cookies.set(cookies.sessionCookie, null, cookieOptions);
    // Signed out of the portal and its platforms; the upstream provider's logout comes on the
    // way to the platform's post-logout URI, as for the portal's own sign-out.
    const platformTarget = koa.response.get('location');
    const atProvider =
      upstream && platformTarget
        ? await upstreamLogout(ctx, upstream, platformTarget, request.ip)
        : null;
    if (atProvider) {
      koa.cookies.set(cookies.upstreamLogoutCookie, atProvider.handoff, {
        ...cookieOptions,
        maxAge: LOGOUT_TTL_MS,
      });
      koa.status = 303;
      koa.redirect(atProvider.url);
    }
  });

  // A token stays valid until it expires, but the access rule can end its use sooner: an admin's
  // cut, a locked or deleted account. Introspection answers as userinfo and refresh do.
  provider.use(async (koa: KoaContextWithOIDC, next) => {
    await next();
    if (koa.oidc?.route !== 'introspection') return;
    const answer = activeToken.safeParse(koa.body);
    if (!answer.success) return;
    const { sub, client_id: clientId } = answer.data;
    const user = await findUserById(db, sub);
    if (!user || user.status !== 'active' || !(await mayUse(clientId, sub))) {
      koa.body = { active: false };
    }
  });

  // A revocation that worked answers 200 with an empty body (RFC 7009 §2.2) — and no content type:
  // Koa would call the empty body text/plain, which browser clients (oidc-client-ts) refuse.
  provider.use(async (koa: KoaContextWithOIDC, next) => {
    await next();
    if (koa.oidc?.route === 'revocation' && koa.status === 200) koa.remove('content-type');
  });

  // Platforms cache the key set; a rotation publishes a key long before it signs (docs/oidc.md).
  provider.use(async (koa: KoaContextWithOIDC, next) => {
    await next();
    if (koa.oidc?.route === 'jwks' && koa.status === 200) {
      koa.set('cache-control', `public, max-age=${JWKS_CACHE_SECONDS}`);
    }
  });

  // The provider answers any failure as a 500 server_error. A database that is down, restarting or
  // too slow is no server error: programs get 503 temporarily_unavailable (RFC 6749 §4.1.2.1) with
  // Retry-After, as every other route does, and browsers the portal's page saying so.
  const unavailable = new WeakSet<object>();
  provider.on('server_error', (koa: object, err: unknown) => {
    if (isDatabaseUnavailable(err)) {
      unavailable.add(koa);
      log.warn({ err }, 'database unavailable');
    } else {
      log.error({ err }, 'oidc provider error');
    }
  });
  provider.use(async (koa, next) => {
    await next();
    if (!unavailable.has(koa)) return;
    koa.set('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    if (koa.status === 500) {
      koa.status = 503;
      koa.body = TEMPORARILY_UNAVAILABLE;
    }
  });
  auditProviderEvents(ctx, provider, requests, log);
  return { provider, requests };
}
