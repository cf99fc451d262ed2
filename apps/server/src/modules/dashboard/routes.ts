import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSchema, errorEnvelopeSchema, supportSchema } from '@hygie/domain';
import type { RouteDeps } from '../route-deps.js';
import { dashboardOf, supportContact } from './service.js';

/** The dashboard's "needs your attention" and the support contact (from configuration). */
export const dashboardRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession },
) => {
  app.get(
    '/api/dashboard',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['account'],
        summary: 'What needs my attention',
        response: { 200: dashboardSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => dashboardOf(ctx, (await requireSession(request)).user_id),
  );

  app.get(
    '/api/support',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['account'],
        summary: 'The support contact (public)',
        response: { 200: supportSchema },
      },
    },
    async () => supportContact(ctx),
  );
};
