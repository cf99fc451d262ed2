import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  lockAccountInputSchema,
  lockAccountResultSchema,
} from '@hygie/domain';
import { issueXsrf } from '../../plugins/csrf.js';
import type { RouteDeps } from '../route-deps.js';
import { lockAccountFromLink } from './service.js';

/** "Not you?": the link of a sign-in notice locks the account and disconnects it everywhere. */
export const lockRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, nudgeOutbox },
) => {
  app.post(
    '/api/lock-account',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['lock'],
        summary: 'Lock the account from a notice link (signed in or not)',
        body: lockAccountInputSchema,
        response: { 200: lockAccountResultSchema, 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const result = await lockAccountFromLink(ctx, request.body, {
        ip: request.ip,
        language: request.language,
        brand: request.brand,
      });
      nudgeOutbox();
      // The browser that follows the link is disconnected too (its session is gone already).
      cookies.clearSession(reply);
      issueXsrf(reply, cookies, ctx.secret, undefined);
      return result;
    },
  );
};
