import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  endedSessionsSchema,
  errorEnvelopeSchema,
  myActivityPageSchema,
  myActivityQuerySchema,
  myConsentListSchema,
  mySessionListSchema,
  okSchema,
} from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import {
  endMyOtherSessions,
  endMySession,
  myActivity,
  myConsents,
  mySessions,
  removeMyConsent,
} from './service.js';

const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };

/**
 * The account's self-service (issue #15): my sessions, my security activity, the platforms I let
 * in. Only the signed-in person's own: another person's session or platform answers 404.
 */
export const selfServiceRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession },
) => {
  app.get(
    '/api/me/sessions',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'My live sessions of the portal (device, address, dates, methods; the current one)',
        response: { 200: mySessionListSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return mySessions(ctx, { userId: session.user_id, sessionId: session.id, ip: request.ip });
    },
  );

  app.delete(
    '/api/me/sessions/:id',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'End one of my sessions (its next request is refused)',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const me = { userId: session.user_id, sessionId: session.id, ip: request.ip };
      await endMySession(ctx, me, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/me/sessions/end-others',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'Sign out everywhere else: end every session of mine but this one',
        response: { 200: endedSessionsSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const me = { userId: session.user_id, sessionId: session.id, ip: request.ip };
      return { ended: await endMyOtherSessions(ctx, me) };
    },
  );

  app.get(
    '/api/me/activity',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'My security events, newest first, a page at a time (keyset: `before`)',
        querystring: myActivityQuerySchema,
        response: { 200: myActivityPageSchema, 400: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return myActivity(ctx, session.user_id, request.query);
    },
  );

  app.get(
    '/api/me/consents',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'The platforms I gave access to: name, scopes, date',
        response: { 200: myConsentListSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return myConsents(ctx, session.user_id);
    },
  );

  app.delete(
    '/api/me/consents/:clientId',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          "Remove a platform's access: its grants, tokens and sessions end; it asks for consent again",
        params: z.object({ clientId: z.string().min(1).max(64) }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const me = { userId: session.user_id, sessionId: session.id, ip: request.ip };
      await removeMyConsent(ctx, me, request.params.clientId);
      return { ok: true as const };
    },
  );
};
