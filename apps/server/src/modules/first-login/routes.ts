import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  firstLoginInfoSchema,
  firstLoginInputSchema,
  firstLoginLinkSchema,
  normalizeEmail,
  normalizePassword,
  okSchema,
} from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { consumeLink, peekLink } from '../links/service.js';
import { assertAcceptablePassword } from '../password/routes.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';
import { setPassword } from '../users/mutations.js';

const errors = { 400: errorEnvelopeSchema };

/** The invited person named by a first-login link; link_expired for anything else (same answer). */
async function invitedUser(
  ctx: AppContext,
  link: { personIdentifier: string; email: string; code: string },
) {
  const found = await peekLink(ctx, link.code, 'first_login');
  const user = await findUserById(ctx.db, found.userId);
  if (!user || user.id !== link.personIdentifier || user.email !== normalizeEmail(link.email)) {
    throw new AppError('link_expired');
  }
  return { linkId: found.id, user };
}

/** An invited person (created by an admin or a script) sets a first password from the e-mailed link. */
export const firstLoginRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { ctx }) => {
  app.get(
    '/api/first-login',
    {
      schema: {
        tags: ['first-login'],
        summary: 'Check a first-login link',
        querystring: firstLoginLinkSchema,
        response: { 200: firstLoginInfoSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await invitedUser(ctx, request.query);
      return { email: user.email, firstName: user.first_name };
    },
  );

  app.post(
    '/api/first-login',
    {
      schema: {
        tags: ['first-login'],
        summary: 'Create the first password',
        body: firstLoginInputSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const { linkId, user } = await invitedUser(ctx, request.body);
      const password = normalizePassword(request.body.password);
      assertAcceptablePassword(password, user);
      const hash = await ctx.passwords.hash(password);
      const now = ctx.clock.now();
      await ctx.db.transaction().execute(async (trx) => {
        await consumeLink(ctx, trx, linkId);
        await setPassword(trx, user.id, hash, now);
        // Following the e-mailed link proves the address.
        await trx
          .updateTable('users')
          .set({ email_verified_at: user.email_verified_at ?? now })
          .where('id', '=', user.id)
          .execute();
        await recordAudit(trx, ctx.clock, {
          action: 'first_password_created',
          actorId: user.id,
          targetId: user.id,
          ip: request.ip,
        });
      });
      return { ok: true as const };
    },
  );
};
