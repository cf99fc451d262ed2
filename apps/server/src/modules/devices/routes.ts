import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, okSchema, trustedDeviceListSchema } from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import { forgetMyDevice, listMyDevices } from './service.js';

const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };

/** My devices: the user's own trusted devices only (another user's id answers 404). */
export const deviceRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession },
) => {
  app.get(
    '/api/devices',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['devices'],
        summary: 'My trusted devices',
        response: { 200: trustedDeviceListSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return listMyDevices(
        ctx,
        { userId: session.user_id, trustedDeviceId: session.trusted_device_id },
        request.cookies[cookies.deviceCookie],
      );
    },
  );

  app.delete(
    '/api/devices/:id',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['devices'],
        summary: 'Forget one of my trusted devices',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await forgetMyDevice(ctx, session.user_id, request.params.id, request.ip);
      return { ok: true as const };
    },
  );
};
