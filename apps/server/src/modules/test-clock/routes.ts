import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MovableClock } from '../../lib/clock.js';
import { advanceClock, readClock } from './service.js';

const readingSchema = z.object({ now: z.number(), offsetSeconds: z.number() });

/**
 * The browser suite's hand on the server clock. Registered only when the server is started with
 * HYGIE_TEST_CLOCK (NODE_ENV=test): everywhere else these paths are unknown (404 not_found).
 */
export const testClockRoutes: FastifyPluginAsyncZod<{ clock: MovableClock }> = async (
  app,
  { clock },
) => {
  app.get(
    '/api/test/clock',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['test'],
        summary: 'The server time (test servers only)',
        response: { 200: readingSchema },
      },
    },
    async () => readClock(clock),
  );

  app.post(
    '/api/test/clock',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['test'],
        summary: 'Move the server time forward (test servers only)',
        // Up to a year: enough for any lifetime the portal knows.
        body: z.object({
          advanceSeconds: z
            .number()
            .int()
            .min(0)
            .max(366 * 24 * 3600),
        }),
        response: { 200: readingSchema },
      },
    },
    async (request) => advanceClock(clock, request.body.advanceSeconds),
  );
};
