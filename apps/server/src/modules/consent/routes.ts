import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cguAcceptInputSchema,
  cguStatusSchema,
  currentUserSchema,
  errorEnvelopeSchema,
} from '@hygie/domain';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/service.js';
import { progressSession } from '../auth/progress.js';
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
      const now = ctx.clock.now();
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('consents')
          .values({
            id: newId(),
            user_id: session.user_id,
            version: settings.CGU_VERSION,
            accepted_at: now,
            ip: request.ip,
          })
          .execute();
        await trx
          .updateTable('users')
          .set({ cgu_version: settings.CGU_VERSION, updated_at: now })
          .where('id', '=', session.user_id)
          .execute();
        await recordAudit(trx, ctx.clock, {
          action: 'cgu_accepted',
          actorId: session.user_id,
          targetId: session.user_id,
          ip: request.ip,
          details: { version: settings.CGU_VERSION },
        });
      });
      const progress = await progressSession(
        ctx,
        session.id,
        session.user_id,
        requestMeta(request),
        { rotate: true },
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );
};
