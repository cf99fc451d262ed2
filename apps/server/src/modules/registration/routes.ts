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
  { ctx, nudgeOutbox },
) => {
  app.post(
    '/api/register',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Sign up as a patient or a professional',
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
      });
      nudgeOutbox();
      return reply.code(201).send(result);
    },
  );
};
