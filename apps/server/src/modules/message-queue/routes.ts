import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminMessageListSchema,
  adminMessageSchema,
  errorEnvelopeSchema,
  messageQuerySchema,
} from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import { messagePage, retryMessage } from './service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

/** Admin: the outbox's messages (never their content) and sending a failed one again. */
export const messageQueueRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireAdmin, nudgeOutbox },
) => {
  app.get(
    '/api/admin/messages',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Outbox messages, newest first, by status and channel: attempts, last error, age — never a code or a link',
        querystring: messageQuerySchema,
        response: { 200: adminMessageListSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return messagePage(ctx, request.query);
    },
  );

  app.post(
    '/api/admin/messages/:id/retry',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Send a failed message again (not one that carried a code or a link: 409 message_not_retryable)',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: adminMessageSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      const message = await retryMessage(ctx, request.params.id, {
        userId: admin.user_id,
        ip: request.ip,
      });
      nudgeOutbox();
      return message;
    },
  );
};
