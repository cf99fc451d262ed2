import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, auditQuerySchema, errorEnvelopeSchema } from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import { auditCsv, auditPage } from './query.js';

/** A streamed body: Fastify pipes it as it is, past the JSON response schemas. */
function sendStream(reply: FastifyReply, stream: Readable): FastifyReply {
  return reply.send(stream);
}

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** Admin: the audit trail, page by page or as one CSV file. */
export const auditRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { ctx, requireAdmin }) => {
  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The audit trail, newest first: by user, action and period, a page at a time (keyset)',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return auditPage(ctx, request.query);
    },
  );

  app.get(
    '/api/admin/audit/export',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The filtered audit trail as CSV (text/csv, at most 100,000 events, formulas neutralised); the export is itself audited',
        querystring: auditQuerySchema.omit({ cursor: true, limit: true }),
        response: {
          200: {
            description: 'The events as CSV, one line each, newest first',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const day = new Date(ctx.clock.now()).toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .header('cache-control', 'no-store');
      const lines = auditCsv(ctx, request.query, { userId: admin.user_id, ip: request.ip });
      return sendStream(reply, Readable.from(lines));
    },
  );
};
