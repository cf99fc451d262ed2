import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicConfigSchema } from '@hygie/domain';
import type { Config } from '../../config.js';
import { publicConfigOf } from './service.js';

/** What the SPA reads before anything else (nothing secret). */
export const publicConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (
  app,
  { config },
) => {
  const answer = publicConfigOf(config);
  app.get(
    '/api/config',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['ops'],
        summary: 'Public client configuration',
        response: { 200: publicConfigSchema },
      },
    },
    async () => answer,
  );
};
