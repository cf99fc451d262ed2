import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cguAcceptInputSchema,
  cguStatusSchema,
  currentUserSchema,
  errorEnvelopeSchema,
} from '@hygie/domain';
import { AppError } from '../../lib/app-error.js';
import { finishStage, termsStage } from '../auth/service.js';
import { replyWithProgress, requestMeta } from '../auth/respond.js';
import type { RouteDeps } from '../route-deps.js';
import { COMPLETE, currentSession } from '../sessions/service.js';
import { loadSettings } from '../settings/service.js';
import { findUserById } from '../users/repository.js';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** Versioned terms of use: who accepted which version when is kept in `consents`. */
export const consentRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession },
) => {
  app.get(
    '/api/cgu',
    {
      schema: {
        tags: ['consent'],
        summary: 'The current terms version, and the one this user accepted',
        response: { 200: cguStatusSchema, ...errors },
      },
    },
    async (request) => {
      const settings = await loadSettings(ctx);
      const session = await currentSession(
        ctx,
        request,
        request.cookies[cookies.sessionCookie],
      ).catch(() => null);
      const user = session ? await findUserById(ctx.db, session.user_id) : undefined;
      return {
        version: settings.CGU_VERSION,
        publishedAt: settings.CGU_PUBLISHED_AT,
        acceptedVersion: user?.cgu_version ?? null,
      };
    },
  );

  app.post(
    '/api/cgu/accept',
    {
      schema: {
        tags: ['consent'],
        summary: 'Accept the current terms version',
        body: cguAcceptInputSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, ['cgu_not_accepted', COMPLETE]);
      const settings = await loadSettings(ctx);
      if (request.body.version !== settings.CGU_VERSION) {
        // The page showed an older version than the one in force: show the new one.
        throw new AppError('validation_error', {
          fields: [{ path: 'version', message: 'cgu_must_be_accepted' }],
        });
      }
      const { progress } = await finishStage(
        ctx,
        { ...requestMeta(request), userId: session.user_id, sessionId: session.id },
        termsStage,
        { version: settings.CGU_VERSION },
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );
};
