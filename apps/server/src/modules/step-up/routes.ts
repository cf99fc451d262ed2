import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, okSchema, reauthenticateInputSchema } from '@hygie/domain';
import type { RouteDeps } from '../route-deps.js';
import { reauthenticate } from './service.js';

/** The step-up before a sensitive change (security.md): the password, re-entered. */
export const stepUpRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { ctx, requireSession } = deps;

  app.post(
    '/api/session/reauthenticate',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary:
          'Confirm the password: for 5 minutes this session may enrol a passkey or a biometric key',
        body: reauthenticateInputSchema,
        response: {
          200: okSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await reauthenticate(ctx, session, request.body.password, request.ip);
      return { ok: true as const };
    },
  );
};
