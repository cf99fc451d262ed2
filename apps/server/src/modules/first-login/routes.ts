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
import { emailVerificationStage, passwordCreationStage } from '../auth/service.js';
import { consumeLink, peekLink } from '../links/service.js';
import { assertAcceptablePassword } from '../password/service.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';

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
      const actor = {
        userId: user.id,
        sessionId: null,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        language: request.language,
        brand: request.brand,
      };
      await ctx.db.transaction().execute(async (trx) => {
        await consumeLink(ctx, trx, linkId);
        await passwordCreationStage.complete(ctx, trx, actor, {
          passwordHash: hash,
          action: 'first_password_created',
        });
        // Following the e-mailed link proves the address.
        await emailVerificationStage.complete(ctx, trx, actor);
      });
      return { ok: true as const };
    },
  );
};
