import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, okSchema } from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';
import { requireAdmin } from './guard.js';

const params = z.object({ id: z.string().min(1).max(64) });
const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };

/** Account validation: a professional's identity is checked by an admin before the first sign-in. */
export const adminAccountsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession, nudgeOutbox },
) => {
  for (const decision of ['validate', 'reject'] as const) {
    app.post(
      `/api/admin/users/:id/${decision}`,
      {
        schema: {
          tags: ['admin'],
          summary:
            decision === 'validate'
              ? 'Validate a pending professional account'
              : 'Reject a pending professional account',
          params,
          response: { 200: okSchema, ...errors },
        },
      },
      async (request) => {
        const admin = await requireAdmin(requireSession, request);
        const user = await findUserById(ctx.db, request.params.id);
        if (!user || user.status !== 'pending_validation') throw new AppError('not_found');
        const now = ctx.clock.now();
        await ctx.db.transaction().execute(async (trx) => {
          if (decision === 'validate') {
            await trx
              .updateTable('users')
              .set({ status: 'active', updated_at: now })
              .where('id', '=', user.id)
              .execute();
          }
          await enqueueMessage(trx, ctx.clock, {
            channel: 'email',
            recipient: user.email,
            template: decision === 'validate' ? 'account_validated' : 'account_rejected',
            language: user.language,
            brand: request.brand,
            params: {
              loginUrl: new URL('/security/login', ctx.config.publicUrl).href,
              contactEmail: ctx.config.contactEmail,
            },
          });
          if (decision === 'reject') {
            // A sign-up whose identity could not be verified leaves no account behind (and so
            // nothing an "unlock" could reopen); the e-mail and the audit record remain.
            await trx.deleteFrom('users').where('id', '=', user.id).execute();
          }
          await recordAudit(trx, ctx.clock, {
            action: `account_${decision}d`,
            actorId: admin.user_id,
            targetId: user.id,
            ip: request.ip,
          });
        });
        nudgeOutbox();
        return { ok: true as const };
      },
    );
  }
};
