import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  registrationInputSchema,
  registrationResultSchema,
} from '@hygie/domain';
import type { RouteDeps } from '../route-deps.js';
import { register } from './service.js';

export const registrationRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, nudgeOutbox },
) => {
  app.post(
    '/api/register',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['registration'],
        summary:
          'Sign up as a patient or a professional (optionally from the identity a provider asserted, pre-filled)',
        body: registrationInputSchema,
        response: {
          201: registrationResultSchema,
          400: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const result = await register(ctx, request.body, {
        ip: request.ip,
        language: request.language,
        brand: request.brand,
        pendingLink: request.pendingLink,
      });
      // Registered with the pending identity: it is linked, the browser forgets it.
      if (request.body.fromIdentityProvider !== undefined) cookies.clearPendingLink(reply);
      nudgeOutbox();
      return reply.code(201).send(result);
    },
  );
};
