import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  firstLoginInfoSchema,
  firstLoginInputSchema,
  firstLoginLinkSchema,
  okSchema,
} from '@hygie/domain';
import { requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { createFirstPassword, readFirstLoginLink } from './service.js';

const errors = { 400: errorEnvelopeSchema };

/** An invited person (created by an admin or a script) sets a first password from the e-mailed link. */
export const firstLoginRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { ctx }) => {
  app.get(
    '/api/first-login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['first-login'],
        summary: 'Check a first-login link',
        querystring: firstLoginLinkSchema,
        response: { 200: firstLoginInfoSchema, ...errors },
      },
    },
    (request) => readFirstLoginLink(ctx, request.query),
  );

  app.post(
    '/api/first-login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['first-login'],
        summary: 'Create the first password',
        body: firstLoginInputSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await createFirstPassword(ctx, request.body, requestMeta(request));
      return { ok: true as const };
    },
  );
};
