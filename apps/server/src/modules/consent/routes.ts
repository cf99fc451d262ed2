import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cguAcceptInputSchema,
  cguStatusSchema,
  currentUserSchema,
  errorEnvelopeSchema,
} from '@hygie/domain';
import { replyWithProgress, requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { COMPLETE, currentSession } from '../sessions/service.js';
import { acceptTerms, termsStatus } from './service.js';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** Versioned terms of use: who accepted which version when is kept in `consents`. */
export const consentRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession },
) => {
  app.get(
    '/api/cgu',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['consent'],
        summary: 'The current terms version, and the one this user accepted',
        response: { 200: cguStatusSchema, ...errors },
      },
    },
    async (request) => {
      const session = await currentSession(
        ctx,
        request,
        request.cookies[cookies.sessionCookie],
      ).catch(() => null);
      return termsStatus(ctx, session?.user_id ?? null);
    },
  );

  app.post(
    '/api/cgu/accept',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['consent'],
        summary: 'Accept the current terms version',
        body: cguAcceptInputSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, ['cgu_not_accepted', COMPLETE]);
      const progress = await acceptTerms(
        ctx,
        { id: session.id, userId: session.user_id },
        request.body.version,
        requestMeta(request),
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );
};
