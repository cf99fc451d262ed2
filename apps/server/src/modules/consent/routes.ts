import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cguAcceptInputSchema,
  cguStatusSchema,
  cguTextSchema,
  currentUserSchema,
  errorEnvelopeSchema,
} from '@hygie/domain';
import { z } from 'zod';
import { replyWithProgress, requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { COMPLETE, currentSession } from '../sessions/service.js';
import { acceptTerms, termsOfVersion, termsStatus } from './service.js';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/**
 * Versioned terms of use, their text stored per version and language: who accepted which text
 * (version, language, hash) when is kept in `consents`.
 */
export const consentRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession },
) => {
  app.get(
    '/api/cgu',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['consent'],
        summary:
          'The terms in force in the asked language (?l=), with their hash, and the version this user accepted',
        response: { 200: cguStatusSchema, ...errors },
      },
    },
    async (request) => {
      const session = await currentSession(
        ctx,
        request,
        request.cookies[cookies.sessionCookie],
      ).catch(() => null);
      return termsStatus(ctx, session?.user_id ?? null, request.language);
    },
  );

  app.post(
    '/api/cgu/accept',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['consent'],
        summary: 'Accept the terms in force: their version and the hash of the text read',
        body: cguAcceptInputSchema,
        response: { 200: currentUserSchema, ...errors, 409: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, ['cgu_not_accepted', COMPLETE]);
      const progress = await acceptTerms(
        ctx,
        { id: session.id, userId: session.user_id },
        request.body,
        requestMeta(request),
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );

  app.get(
    '/api/cgu/versions/:version',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['consent'],
        summary: 'The text of a published terms version in the asked language (?l=), as published',
        params: z.object({ version: z.string().min(1).max(40) }),
        response: { 200: cguTextSchema, 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => termsOfVersion(ctx, request.params.version, request.language),
  );
};
