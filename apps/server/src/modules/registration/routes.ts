import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  registrationInputSchema,
  registrationResultSchema,
} from '@hygie/domain';
import { AppError } from '../../lib/app-error.js';
import type { RouteDeps } from '../route-deps.js';
import { Throttle } from '../throttle/service.js';
import { register } from './service.js';

const HOUR = 60 * 60_000;
/** Sign-ups per address per hour: "e-mail already used" is an answer the spec wants, so it is rate limited. */
export const REGISTRATIONS_PER_IP_PER_HOUR = 20;

export const registrationRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, nudgeOutbox },
) => {
  app.post(
    '/api/register',
    {
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
      const throttle = new Throttle(ctx.db, ctx.clock);
      const attempts = await throttle.fail(`register:${request.ip}`, () => null, HOUR);
      if (attempts > REGISTRATIONS_PER_IP_PER_HOUR) throw new AppError('too_many_requests');
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
