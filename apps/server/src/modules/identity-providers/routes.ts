import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IdpError, IdpIntent, PendingIdentity } from '@hygie/domain';
import {
  errorEnvelopeSchema,
  IDP_INTENTS,
  identityLinksSchema,
  okSchema,
  pendingIdentitySchema,
  requiredLevelSchema,
  safeTargetUri,
} from '@hygie/domain';
import type { RequiredLevel } from '@hygie/domain';
import { stepUpWithProvider } from '../assurance/service.js';
import { COMPLETE, currentSession } from '../sessions/service.js';
import type { RouteDeps } from '../route-deps.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { issueXsrf } from '../../plugins/csrf.js';
import { requestMeta } from '../../plugins/stage-reply.js';
import {
  finishSignIn,
  myIdentityLinks,
  pendingRegistration,
  providerUnavailableError,
  startSignIn,
  unlinkIdentity,
} from './service.js';
import { logoutTarget } from '../oidc/logout.js';
import { targetAfterUpstreamLogout } from './logout.js';
import { PENDING_LINK_TTL_MS } from './pending-link.js';
import { TRANSACTION_TTL_MS } from './transaction.js';

/** The login page a failed provider sign-in comes back to, with its reason. */
const LOGIN_PAGE = '/security/login';

/** The account area's page listing the links (the web app's devices page). */
const LINKS_PAGE = '/devices';

/** The step-up screen, where a step-up through a provider comes back on failure. */
const STEP_UP_PAGE = '/security/step-up';

/** The registration choice screen, where a sign-in started to register comes back on failure. */
const REGISTER_PAGE = '/security/register';

/** The registration of an account of a provider's kind, pre-filled with its pending identity. */
function registrationPage(profile: PendingIdentity['profile'], provider: string): string {
  return `${REGISTER_PAGE}/${profile}?${new URLSearchParams({ idp: provider }).toString()}`;
}

const providerParams = z.object({ provider: z.string().max(40) });

const redirected = z.null().describe('The `location` header is where the browser goes next');

/**
 * Whether the caller is a program that asked for JSON (it gets the 503 with Retry-After) rather
 * than a browser navigating (it goes back to the login page with `idp_error`).
 */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** Upstream identity providers: start a sign-in, and the provider's callback (docs/identity-providers.md). */
export const identityProviderRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession, nudgeOutbox },
) => {
  // Sent back by the browser when the provider redirects it here (a cross-site navigation: Lax).
  const transactionCookie = cookies.secure ? '__Host-hygie_idp' : 'hygie_idp';
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookies.secure,
  } as const;

  /**
   * Back to the login page with the reason, keeping the page asked for (password or retry); or,
   * for a sign-in started to register, back to the registration choice screen.
   */
  const backToLogin = (
    reply: FastifyReply,
    error: IdpError,
    target: string | null,
    intent: IdpIntent,
    level?: RequiredLevel,
  ) => {
    const query = new URLSearchParams({ idp_error: error });
    if (level && intent === 'step_up') query.set('level', level);
    if (target) query.set('target_uri', target);
    const page =
      intent === 'register' ? REGISTER_PAGE : intent === 'step_up' ? STEP_UP_PAGE : LOGIN_PAGE;
    return reply.redirect(`${page}?${query.toString()}`, 303);
  };

  app.get(
    '/api/idp/:provider/start',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Browser navigation: starts a sign-in with an upstream identity provider (PKCE, state, nonce, acr_values)',
        params: providerParams,
        querystring: z.object({
          target_uri: z.string().optional(),
          intent: z
            .enum(IDP_INTENTS)
            .optional()
            .describe(
              '`register`: an identity linked to no account goes to the registration pre-filled with it; `step_up`: raises the signed-in session (the identity must be linked to its account)',
            ),
          level: requiredLevelSchema
            .optional()
            .describe(
              'With `step_up`: the level asked for (a failure comes back to the step-up screen with it)',
            ),
        }),
        response: {
          302: redirected,
          303: redirected,
          404: errorEnvelopeSchema,
          503: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      try {
        const { url, transaction } = await startSignIn(
          ctx,
          request.params.provider,
          request.query.target_uri,
          request.ip,
          request.query.intent,
          request.query.level,
        );
        void reply.setCookie(transactionCookie, transaction, {
          ...cookieOptions,
          maxAge: TRANSACTION_TTL_MS / 1000,
        });
        return reply.redirect(url, 302);
      } catch (err) {
        if (
          isAppError(err) &&
          err.code === 'identity_provider_unavailable' &&
          !wantsJson(request)
        ) {
          const target = safeTargetUri(request.query.target_uri, ctx.config.publicUrl.origin);
          return backToLogin(
            reply,
            'identity_provider_unavailable',
            target,
            request.query.intent ?? 'sign_in',
            request.query.level,
          );
        }
        throw err;
      }
    },
  );

  app.get(
    '/api/idp/:provider/callback',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          "The provider's redirect back: a linked identity signs its account in; anything else returns to the login page with idp_error",
        params: providerParams,
        querystring: z
          .object({
            code: z.string().optional(),
            state: z.string().optional(),
            error: z.string().optional(),
          })
          .loose(),
        response: {
          303: redirected,
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          503: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      // The transaction is used once: whatever happens next, the browser forgets it.
      const sealed = request.cookies[transactionCookie];
      void reply.clearCookie(transactionCookie, cookieOptions);
      const outcome = await finishSignIn(
        ctx,
        request.params.provider,
        new URL(request.url, ctx.config.publicUrl),
        sealed,
        {
          meta: requestMeta(request),
          deviceToken: request.cookies[cookies.deviceCookie],
          previousToken: request.cookies[cookies.sessionCookie],
        },
      );
      if (!outcome.ok && 'pendingLink' in outcome) {
        // Linked to no account: the login page asks to prove one; the identity waits, sealed.
        cookies.setPendingLink(reply, outcome.pendingLink, PENDING_LINK_TTL_MS / 1000);
        // Started to register: straight to the registration pre-filled with it.
        if (outcome.intent === 'register') {
          return reply.redirect(registrationPage(outcome.profile, request.params.provider), 303);
        }
        const query = new URLSearchParams({ idp_link: request.params.provider });
        // Once signed in, the page asked for; else the account area, which says whether it linked.
        if (outcome.target) query.set('target_uri', outcome.target);
        else query.set('redirect', `${LINKS_PAGE}?idp_link=${request.params.provider}`);
        return reply.redirect(`${LOGIN_PAGE}?${query.toString()}`, 303);
      }
      if (!outcome.ok) {
        if (outcome.error === 'identity_provider_unavailable' && wantsJson(request)) {
          throw providerUnavailableError(ctx, request.params.provider);
        }
        return backToLogin(reply, outcome.error, outcome.target, outcome.intent, outcome.level);
      }
      if ('stepUp' in outcome) {
        // The step-up raises this browser's complete session, if it is the linked account's.
        const session = await currentSession(
          ctx,
          request,
          request.cookies[cookies.sessionCookie],
        ).catch((err: unknown) => {
          if (isAppError(err)) return null; // expired meanwhile
          throw err;
        });
        if (session?.stage !== COMPLETE || session.user_id !== outcome.stepUp.userId) {
          return backToLogin(reply, 'not_linked', outcome.target, 'step_up', outcome.level);
        }
        const { provider, acr } = outcome.stepUp;
        await stepUpWithProvider(ctx, session, provider, acr, request.ip);
        return reply.redirect(outcome.target ?? '/', 303);
      }
      const { result, target } = outcome;
      const { progress } = result;
      const token =
        progress.complete && progress.rotatedToken ? progress.rotatedToken : result.token;
      cookies.setSession(reply, token);
      issueXsrf(reply, cookies, ctx.secret, token);
      if (progress.complete && progress.browserToken) {
        cookies.setBrowser(reply, progress.browserToken);
      }
      // A pending stage (second factor, terms…) is where the web app's guard sends the browser.
      return reply.redirect(target ?? '/', 303);
    },
  );

  app.get(
    '/api/idp/:provider/logged-out',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          "The provider's redirect back after its logout (post_logout_redirect_uri): on to where the portal's logout was going",
        params: providerParams,
        querystring: z.object({ state: z.string().max(200).optional() }).loose(),
        response: { 303: redirected },
      },
    },
    async (request, reply) => {
      // Used once: whatever comes back, the browser forgets the handoff.
      const sealed = request.cookies[cookies.upstreamLogoutCookie];
      cookies.clearUpstreamLogout(reply);
      const target = targetAfterUpstreamLogout(
        ctx,
        request.params.provider,
        request.query.state,
        sealed,
      );
      // Anything else (replayed, forged, stale) is signed out too: the sign-in page.
      return reply.redirect(target ?? (await logoutTarget(ctx, undefined)), 303);
    },
  );

  app.get(
    '/api/idp/pending',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['registration'],
        summary:
          'The identity a provider asserted that waits, linked to no account, in this browser: what a registration form takes of it',
        response: { 200: pendingIdentitySchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const found = await pendingRegistration(ctx, request.pendingLink);
      if (!found) throw new AppError('not_found');
      return found.view;
    },
  );

  app.get(
    '/api/me/identity-links',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: "My account's links with upstream identity providers",
        response: { 200: identityLinksSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return { links: await myIdentityLinks(ctx, session.user_id) };
    },
  );

  app.delete(
    '/api/me/identity-links/:provider',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'Remove my link with a provider (recent proof required; never the last way to sign in)',
        params: providerParams,
        response: {
          200: okSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await unlinkIdentity(ctx, session, request.params.provider, requestMeta(request));
      nudgeOutbox();
      return { ok: true as const };
    },
  );
};
