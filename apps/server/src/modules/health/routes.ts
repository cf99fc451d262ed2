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
    { schema: { tags: ['ops'], summary: 'Liveness', response: { 200: healthSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['ops'],
        summary: 'Readiness: 503 while the database is unreachable',
        response: { 200: healthSchema, 503: healthSchema },
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
