import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deleteAccountInputSchema,
  errorEnvelopeSchema,
  myDataSchema,
  okSchema,
} from '@hygie/domain';
import { issueXsrf } from '../../plugins/csrf.js';
import type { RouteDeps } from '../route-deps.js';
import { deleteMyAccount, exportMyData } from './service.js';

/** "My data": the person's export, and the deletion of their own account (issue #15). */
export const accountRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession, nudgeOutbox },
) => {
  app.get(
    '/api/me/export',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary:
          'Download my data: every personal datum held about me, as a JSON file (never a secret); audited',
        response: {
          200: myDataSchema.describe(
            'The file (attachment hygie-data-YYYY-MM-DD.json, not cached)',
          ),
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      const data = await exportMyData(ctx, session.user_id, request.ip);
      const day = data.exportedAt.slice(0, 10);
      reply
        .header('content-disposition', `attachment; filename="hygie-data-${day}.json"`)
        .header('cache-control', 'no-store');
      return data;
    },
  );

  app.delete(
    '/api/me',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary:
          'Delete my account (the current password, or a second factor passed in the last 5 minutes): personal data erased, the audit trail kept without them, signed out',
        body: deleteAccountInputSchema,
        response: {
          200: okSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      await deleteMyAccount(ctx, {
        session,
        ...(request.body.password !== undefined && { password: request.body.password }),
        ip: request.ip,
        brand: request.brand,
      });
      nudgeOutbox();
      cookies.clearSession(reply);
      issueXsrf(reply, cookies, ctx.secret, undefined);
      return { ok: true as const };
    },
  );
};
