import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { legalInformationSchema } from '@hygie/domain';
import type { RouteDeps } from '../route-deps.js';
import { legalInformation } from './service.js';

/** The facts of the legal notice and the personal-data policy (public, no sign-in). */
export const legalRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { ctx }) => {
  app.get(
    '/api/legal',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['account'],
        summary: 'The operator’s legal information and retention periods (public)',
        response: { 200: legalInformationSchema },
      },
    },
    async () => legalInformation(ctx),
  );
};
