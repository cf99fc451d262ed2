import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  lockAccountInputSchema,
  lockAccountResultSchema,
  normalizeEmail,
} from '@hygie/domain';
import { AppError } from '../../lib/app-error.js';
import { issueXsrf } from '../../plugins/csrf.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { consumeLink, peekLink } from '../links/service.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';
import { revokeAccess } from '../users/mutations.js';

/** "Not you?": the link of a sign-in notice locks the account and disconnects it everywhere. */
export const lockRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, nudgeOutbox },
) => {
  app.post(
    '/api/lock-account',
    {
      schema: {
        tags: ['lock'],
        summary: 'Lock the account from a notice link (signed in or not)',
        body: lockAccountInputSchema,
        response: { 200: lockAccountResultSchema, 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const link = await peekLink(ctx, request.body.code, 'lock_account');
      const user = await findUserById(ctx.db, link.userId);
      if (!user || user.email !== normalizeEmail(request.body.email))
        throw new AppError('link_expired');
      const now = ctx.clock.now();
      await ctx.db.transaction().execute(async (trx) => {
        await consumeLink(ctx, trx, link.id);
        await trx
          .updateTable('users')
          .set({ status: 'locked', updated_at: now })
          .where('id', '=', user.id)
          .execute();
        await revokeAccess(trx, user.id);
        await enqueueMessage(trx, ctx.clock, {
          channel: 'email',
          recipient: user.email,
          template: 'account_locked',
          language: request.language,
          brand: request.brand,
          params: { contactEmail: ctx.config.contactEmail },
        });
        await recordAudit(trx, ctx.clock, {
          action: 'account_locked_by_user',
          actorId: user.id,
          targetId: user.id,
          ip: request.ip,
        });
      });
      nudgeOutbox();
      // The browser that follows the link is disconnected too (its session is gone already).
      cookies.clearSession(reply);
      issueXsrf(reply, cookies, ctx.secret, undefined);
      return { username: user.email };
    },
  );
};
