import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import type { LetterSettings } from '../../messaging/templates.js';
import { devOutboxMessages } from './service.js';

const messageSchema = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  template: z.string(),
  language: z.string(),
  brand: z.string(),
  status: z.enum(['pending', 'sent', 'failed', 'expired']),
  createdAt: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  sms: z.string(),
});

/**
 * Development only: the messages the outbox holds, newest first. Registered only when the
 * configuration allows it (`config.devOutbox`); elsewhere the path does not exist (404).
 */
export const devOutboxRoutes: FastifyPluginAsyncZod<{ db: Db; letter: LetterSettings }> = async (
  app,
  { db, letter },
) => {
  app.get(
    '/api/dev/outbox',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['dev'],
        summary: 'Messages in the dev outbox, newest first (absent with real transports)',
        querystring: z.object({
          to: z.string().max(255).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: z.array(messageSchema) },
      },
    },
    async (request) => devOutboxMessages(db, letter, request.query),
  );
};
