import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@hygie/domain';
import type { DbHandle } from '../../db/connection.js';
import type { Lifecycle } from '../../lifecycle.js';

const READY_TIMEOUT_MS = 2000;

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
      // A draining node tells the load balancer to stop sending it traffic.
      if (lifecycle.draining) return reply.code(503).send({ status: 'unavailable' as const });
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          database.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error('database ping timed out')),
              READY_TIMEOUT_MS,
            );
          }),
        ]);
        return { status: 'ok' as const };
      } catch (err) {
        request.log.warn({ err }, 'not ready: database unreachable');
        return reply.code(503).send({ status: 'unavailable' as const });
      } finally {
        clearTimeout(timer);
      }
    },
  );
};
