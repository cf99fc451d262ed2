import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminPlatformListSchema,
  adminPlatformSchema,
  createdPlatformSchema,
  errorEnvelopeSchema,
  okSchema,
  platformAccessSchema,
  platformAccessUpdateSchema,
  platformCreateInputSchema,
  platformNameSchema,
  platformUpdateInputSchema,
  serviceListSchema,
} from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import {
  createPlatform,
  deletePlatform,
  enableService,
  getAdminPlatform,
  listAdminPlatforms,
  listServices,
  platformNameOfClient,
  setUserPlatformAccess,
  updatePlatform,
} from './service.js';

const id = z.string().min(1).max(64);
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** The platforms registry (admin), per-user access (admin), and "My services" (signed-in users). */
export const platformRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession, requireAdmin },
) => {
  app.get(
    '/api/admin/platforms',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every platform (OIDC client)',
        response: { 200: adminPlatformListSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return { platforms: await listAdminPlatforms(ctx) };
    },
  );

  app.get(
    '/api/admin/platforms/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'One platform',
        params: z.object({ id }),
        response: { 200: adminPlatformSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return getAdminPlatform(ctx, request.params.id);
    },
  );

  app.post(
    '/api/admin/platforms',
    {
      schema: {
        tags: ['admin'],
        summary: 'Register a platform; the answer carries its client secret, shown this once',
        body: platformCreateInputSchema,
        response: { 201: createdPlatformSchema, ...errors },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const created = await createPlatform(ctx, request.body, {
        userId: admin.user_id,
        ip: request.ip,
      });
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.patch(
    '/api/admin/platforms/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a platform (name, URIs, access policy …)',
        params: z.object({ id }),
        body: platformUpdateInputSchema,
        response: { 200: adminPlatformSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return updatePlatform(ctx, request.params.id, request.body, {
        userId: admin.user_id,
        ip: request.ip,
      });
    },
  );

  app.delete(
    '/api/admin/platforms/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove a platform: its client stops working at once',
        params: z.object({ id }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      await deletePlatform(ctx, request.params.id, { userId: admin.user_id, ip: request.ip });
      return { ok: true as const };
    },
  );

  app.put(
    '/api/admin/users/:id/platforms/:platformId',
    {
      schema: {
        tags: ['admin'],
        summary: "Enable or disable a user's access to a platform (next request to it)",
        params: z.object({ id, platformId: id }),
        body: platformAccessUpdateSchema,
        response: { 200: platformAccessSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return setUserPlatformAccess(
        ctx,
        request.params.id,
        request.params.platformId,
        request.body.enabled,
        { userId: admin.user_id, ip: request.ip },
      );
    },
  );

  // Anonymous: the error page of a failed platform sign-in names the platform from the registry.
  app.get(
    '/api/platforms/by-client/:clientId',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['platforms'],
        summary: 'The registered name and address of the platform behind an OIDC client',
        params: z.object({ clientId: id }),
        response: { 200: platformNameSchema, ...errors },
      },
    },
    async (request) => platformNameOfClient(ctx, request.params.clientId),
  );

  app.get(
    '/api/services',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['account'],
        summary: 'My services: every platform, whether I may use it and what I can do about it',
        response: { 200: serviceListSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return { services: await listServices(ctx, session.user_id) };
    },
  );

  app.post(
    '/api/services/:id/enable',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['account'],
        summary: 'Enable a platform (on request) or ask an admin for it (admin policy)',
        params: z.object({ id }),
        response: { 200: platformAccessSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return enableService(ctx, session.user_id, request.params.id, {
        userId: session.user_id,
        ip: request.ip,
      });
    },
  );
};
