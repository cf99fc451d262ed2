import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@hygie/domain';
import type { Metrics } from '../lib/metrics.js';
import { hashToken, safeEqual } from '../lib/tokens.js';
import { AppError } from '../lib/app-error.js';
import { sendError } from './error-handler.js';

/**
 * Times every request by its route pattern (never the raw URL: ids and codes stay out, the label
 * set stays small) and, when METRICS_TOKEN is set, serves the metrics to a scraper presenting it
 * as a bearer token. Without the token configured there is no /metrics (404).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { metrics, token }: { metrics: Metrics; token: string | null }) => {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.httpDuration.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
    if (token === null) return;
    metrics.collectProcessMetrics();
    const expected = hashToken(token);
    const metricsSchema = {
      tags: ['ops'],
      summary: 'Prometheus metrics, for the scraper holding METRICS_TOKEN',
      response: {
        200: {
          description: 'The metrics in the Prometheus text format',
          content: { 'text/plain': { schema: z.string() } },
        },
        401: errorEnvelopeSchema,
        503: errorEnvelopeSchema,
      },
    };
    app.get(
      '/metrics',
      { config: { auth: 'bearer', probe: true }, schema: metricsSchema },
      async (request, reply) => {
        const header = request.headers.authorization ?? '';
        const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
        if (!presented || !safeEqual(hashToken(presented), expected)) {
          void reply.header('www-authenticate', 'Bearer realm="metrics"');
          return sendError(request, reply, 'not_logged_in');
        }
        const body = await metrics.exposition().catch((err: unknown) => {
          // One process of several: the primary gathering them did not answer in time.
          request.log.warn({ err }, 'metrics: the processes did not answer');
          throw new AppError('service_unavailable', undefined, { 'retry-after': '1' });
        });
        return reply
          .header('cache-control', 'no-store')
          .type(metrics.registry.contentType)
          .send(body);
      },
    );
  },
);
