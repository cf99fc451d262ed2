import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  recoveryCodesInputSchema,
  recoveryCodesSchema,
  recoveryCodesStatusSchema,
} from '@hygie/domain';
import { requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { proveNow } from '../step-up/service.js';
import { generateRecoveryCodes, recoveryCodesStatus } from './service.js';

/** The account's recovery codes: how many are left, and a new set behind the step-up. */
export const recoveryCodesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession, nudgeOutbox },
) => {
  app.get(
    '/api/me/recovery-codes',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'How many of my recovery codes are left, and when the set was made (never the codes)',
        response: { 200: recoveryCodesStatusSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return recoveryCodesStatus(ctx, session.user_id);
    },
  );

  app.post(
    '/api/me/recovery-codes',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'A new set of 10 recovery codes, shown once, replacing the old one (the current password, or a proof in the last 5 minutes)',
        body: recoveryCodesInputSchema,
        response: {
          200: recoveryCodesSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await proveNow(ctx, session, request.body.currentPassword);
      const codes = await generateRecoveryCodes(ctx, session.user_id, requestMeta(request));
      nudgeOutbox();
      return { codes };
    },
  );
};
