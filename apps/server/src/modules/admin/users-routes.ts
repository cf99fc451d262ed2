import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  identityCorrectionSchema,
  invitationInputSchema,
  invitationResultSchema,
  profileSchema,
  userSearchQuerySchema,
  userSearchResultSchema,
} from '@hygie/domain';
import { z } from 'zod';
import { inviteUser } from '../first-login/invite.js';
import { correctIdentity, identityOf } from '../profile/service.js';
import type { RouteDeps } from '../route-deps.js';
import { findUsers } from './service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

/** Admin: find users (one index range per page, docs/decisions.md), correct an identity, invite. */
export const adminUsersRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireAdmin, nudgeOutbox },
) => {
  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Search users by name or e-mail prefix, or by phone, INS or professional identifier, with their access per platform; keyset pages (nextCursor, 400 invalid_cursor for a cursor of another search)',
        querystring: userSearchQuerySchema,
        response: { 200: userSearchResultSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return findUsers(ctx, request.query);
    },
  );

  app.get(
    '/api/admin/users/:id/identity',
    {
      schema: {
        tags: ['admin'],
        summary: 'A user’s identity and profile, to correct it',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return identityOf(ctx, request.params.id);
    },
  );

  app.patch(
    '/api/admin/users/:id/identity',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Correct a user’s identity (names, birth traits, professional identifier), audited: once a professional is validated, only an admin changes it',
        params: z.object({ id: z.string().min(1).max(64) }),
        body: identityCorrectionSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return correctIdentity(ctx, request.params.id, request.body, {
        userId: admin.user_id,
        ip: request.ip,
      });
    },
  );

  app.post(
    '/api/admin/invitations',
    {
      schema: {
        tags: ['admin'],
        summary: 'Invite a person: creates the account and e-mails the first-login link',
        body: invitationInputSchema,
        response: { 201: invitationResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { userId } = await inviteUser(ctx, {
        email: request.body.email,
        firstName: request.body.firstName ?? null,
        lastName: request.body.lastName ?? null,
        profile: request.body.profile ?? null,
        admin: request.body.admin ?? false,
        language: request.language,
        brand: request.brand,
        invitedBy: admin.user_id,
      });
      nudgeOutbox();
      return reply.code(201).send({ userId });
    },
  );
};
