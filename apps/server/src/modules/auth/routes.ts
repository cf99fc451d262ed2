import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema, errorEnvelopeSchema, loginInputSchema } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { CookiePolicy } from '../../plugins/cookies.js';
import type { RequireSession } from '../../plugins/authenticate.js';
import { issueXsrf } from '../../plugins/csrf.js';
import { presentUser } from '../users/present.js';
import { slide } from '../sessions/service.js';
import { endPortalAndProviderSessions, logoutTarget } from '../oidc/logout.js';
import {
  LOGOUT_TTL_MS,
  upstreamLogout,
  upstreamSignInToEnd,
} from '../identity-providers/logout.js';
import { login } from './service.js';
import { replyWithProgress, requestMeta } from '../../plugins/stage-reply.js';

interface Deps {
  ctx: AppContext;
  cookies: CookiePolicy;
  requireSession: RequireSession;
}

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

export const authRoutes: FastifyPluginAsyncZod<Deps> = async (
  app,
  { ctx, cookies, requireSession },
) => {
  app.post(
    '/api/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Password step of sign-in (an e-mail or mobile phone as username)',
        body: loginInputSchema,
        response: {
          200: currentUserSchema,
          ...errors,
          423: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const result = await login(
        ctx,
        request.body,
        requestMeta(request),
        request.cookies[cookies.deviceCookie],
        request.cookies[cookies.sessionCookie],
      );
      cookies.setSession(reply, result.token);
      issueXsrf(reply, cookies, ctx.secret, result.token);
      return replyWithProgress(ctx, cookies, request, reply, result.progress);
    },
  );

  app.get(
    '/api/me',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user, or the pending sign-in stage',
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return presentUser(session.user, {
        idleExpiresAt: session.idle_expires_at,
        absoluteExpiresAt: session.absolute_expires_at,
      });
    },
  );

  app.post(
    '/api/session/extend',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'Stay signed in: slides the idle expiry (never past the absolute one)',
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await slide(ctx, session, ctx.clock.now());
      return presentUser(session.user, {
        idleExpiresAt: session.idle_expires_at,
        absoluteExpiresAt: session.absolute_expires_at,
      });
    },
  );

  app.get(
    '/api/logout',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['auth'],
        summary:
          "Browser navigation: ends the session and its OIDC sessions, then redirects (target_uri of the API origin or a registered post-logout URI only) — through the upstream provider's logout first when the session was opened with one",
        querystring: z.object({ target_uri: z.string().optional() }),
        response: {
          303: z
            .null()
            .describe('Signed out: the `location` header is where the browser goes next'),
        },
      },
    },
    async (request, reply) => {
      const token = request.cookies[cookies.sessionCookie];
      // Read before the session ends: the upstream provider it was opened through, if any.
      const upstream = await upstreamSignInToEnd(ctx, token);
      // Single sign-out: the portal session and the user's sessions with the platforms' provider.
      await endPortalAndProviderSessions(ctx, request, token);
      cookies.clearSession(reply);
      issueXsrf(reply, cookies, ctx.secret, undefined);
      const target = await logoutTarget(ctx, request.query.target_uri);
      // Signed out here already; the provider's logout, when it has one, comes on the way.
      const atProvider = upstream ? await upstreamLogout(ctx, upstream, target, request.ip) : null;
      if (atProvider) {
        cookies.setUpstreamLogout(reply, atProvider.handoff, LOGOUT_TTL_MS / 1000);
        return reply.redirect(atProvider.url, 303);
      }
      return reply.redirect(target, 303);
    },
  );
};
