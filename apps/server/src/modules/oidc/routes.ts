import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, signingKeyListSchema, signingKeyRotationSchema } from '@hygie/domain';
import type { RouteDeps } from '../route-deps.js';
import type { PlatformLogoutSender } from './backchannel.js';
import { abortInteraction, runInteraction } from './interaction-routes.js';
import { createOidcProvider, OIDC_PREFIX } from './provider.js';
import { rotateKeys, signingKeyList } from './service.js';

const uid = z.string().min(1).max(64);

/**
 * The OpenID Connect provider at /oidc (a Koa app: each request is handed over raw, the reply
 * hijacked) and the interaction routes the provider sends browsers to.
 */
export const oidcRoutes: FastifyPluginAsyncZod<
  RouteDeps & { platformLogout: PlatformLogoutSender }
> = async (app, deps) => {
  const { ctx, cookies, requireSession, requireAdmin } = deps;
  const { provider, requests } = await createOidcProvider({
    ctx,
    cookies,
    requireSession,
    log: app.log,
  });
  deps.platformLogout.attach(provider, deps.ctx);
  const callback = provider.callback();
  const publicUrl = ctx.config.publicUrl;

  // Headers of the provider's own answers (they bypass Fastify's onSend hooks). The CSP allows no
  // script but the provider's self-submitting forms, whose hashes it appends itself.
  const headers: Record<string, string> = {
    'content-security-policy':
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
    ...(ctx.config.hsts
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };

  await app.register(async (scope) => {
    // The provider reads its own bodies (forms, JSON): nothing is parsed here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(`${OIDC_PREFIX}/*`, { schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      const raw = request.raw;
      requests.set(raw, request);
      // Links and cookie security follow PUBLIC_URL, never the request's Host; the client address
      // is the one Fastify resolved with TRUST_PROXY.
      raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      raw.headers['x-forwarded-host'] = publicUrl.host;
      raw.headers['x-forwarded-for'] = request.ip;
      // Koa (inside the provider) reads `originalUrl`, which Node's request type does not declare.
      Object.assign(raw, { originalUrl: raw.url });
      raw.url = (raw.url ?? '').slice(OIDC_PREFIX.length) || '/';
      const res: ServerResponse = reply.raw;
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader('x-request-id', request.id);
      return callback(raw, res);
    });
  });

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const interactionDeps = { ctx, provider, requireSession, cookies };
    scope.get(
      `${OIDC_PREFIX}/interaction/:uid`,
      { schema: { hide: true, params: z.object({ uid }) } },
      (request, reply) => runInteraction(interactionDeps, request, reply, request.params.uid),
    );
    scope.get(
      `${OIDC_PREFIX}/interaction/:uid/abort`,
      { schema: { hide: true, params: z.object({ uid }) } },
      (request, reply) => abortInteraction(interactionDeps, request, reply, request.params.uid),
    );
    scope.post(
      `${OIDC_PREFIX}/interaction/:uid/consent`,
      {
        schema: {
          hide: true,
          params: z.object({ uid }),
          body: z.object({
            token: z.string().max(200),
            decision: z.enum(['allow', 'deny']).optional(),
          }),
        },
      },
      (request, reply) =>
        runInteraction(interactionDeps, request, reply, request.params.uid, request.body),
    );
  });

  const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
  app.get(
    '/api/admin/oidc/keys',
    {
      schema: {
        tags: ['admin'],
        summary: "The provider's signing keys (ids only); the first one signs",
        response: { 200: signingKeyListSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return signingKeyList(ctx);
    },
  );
  app.post(
    '/api/admin/oidc/keys/rotate',
    {
      schema: {
        tags: ['admin'],
        summary: 'One step of a signing-key rotation; restart the nodes after it (docs/oidc.md)',
        body: signingKeyRotationSchema,
        response: { 200: signingKeyListSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return rotateKeys(ctx, request.body.step, { userId: admin.user_id, ip: request.ip });
    },
  );
};
