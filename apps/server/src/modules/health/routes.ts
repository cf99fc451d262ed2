import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@hygie/domain';
import type { DbHandle } from '../../db/connection.js';
import type { Lifecycle } from '../../lifecycle.js';
import { checkReadiness } from './service.js';

/** Liveness (the process answers) and readiness (the database answers). */
export const healthRoutes: FastifyPluginAsyncZod<{
  database: DbHandle;
  lifecycle: Lifecycle;
}> = async (app, { database, lifecycle }) => {
  app.get(
    '/api/health',
    {
      config: { auth: 'public', probe: true },
      schema: { tags: ['ops'], summary: 'Liveness', response: { 200: healthSchema } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/ready',
    {
      config: { auth: 'public', probe: true },
      schema: {
        tags: ['ops'],
        summary: 'Readiness: 503 while the database is unreachable',
        response: {
          200: healthSchema.describe('Ready: the database answers'),
          503: healthSchema.describe('Not ready: the database does not answer, or the node drains'),
        },
      },
    },
    async (request, reply) => {
      const readiness = await checkReadiness(database, lifecycle);
      if (readiness.ready) return { status: 'ok' as const };
      if (readiness.reason === 'database') {
        request.log.warn({ err: readiness.err }, 'not ready: database unreachable');
      }
      return reply.code(503).send({ status: 'unavailable' as const });
    },
  );
};
