import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminUserDetailSchema,
  errorEnvelopeSchema,
  okSchema,
  roleInputSchema,
  USER_ACTIONS,
} from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import { actOnUser, deleteAccount, setRole, type AdminActing } from './user-actions.js';
import { userDetail } from './user-detail.js';

const params = z.object({ id: z.string().min(1).max(64) });
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

const SUMMARIES: Record<(typeof USER_ACTIONS)[number], string> = {
  lock: 'Lock an account: every session, trusted browser, key and platform token ends (fresh proof)',
  unlock: 'Unlock a locked account (and clear its sign-in throttle)',
  disable: 'Disable an account: it can no longer sign in, everything it held ends (fresh proof)',
  enable: 'Enable a disabled account again',
  'end-sessions':
    'End every session, trusted browser and platform token of a user; the password stays (fresh proof)',
  'send-password-reset': 'E-mail the user a link (valid 24 h) to choose a new password',
  'resend-invitation':
    'E-mail a new first-login link to an invited user (the old one stops working)',
};

/**
 * Admin: one user in detail and the actions on that account. Each is audited and tells the owner
 * by e-mail where it changes their access; the ones that cut access need a proof under 5 minutes
 * old (403 reauthentication_required); the last active admin is never locked, disabled, demoted
 * or deleted (409 last_admin).
 */
export const adminUserRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireAdmin, nudgeOutbox },
) => {
  const acting = async (request: Parameters<typeof requireAdmin>[0]): Promise<AdminActing> => {
    const session = await requireAdmin(request);
    return { via: 'admin', userId: session.user_id, ip: request.ip, brand: request.brand, session };
  };

  app.get(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'One user in detail: identity, channels, status, roles, sessions, trusted browsers, keys, platform access, last events',
        params,
        response: { 200: adminUserDetailSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return userDetail(ctx, request.params.id);
    },
  );

  for (const action of USER_ACTIONS) {
    app.post(
      `/api/admin/users/:id/${action}`,
      {
        schema: {
          tags: ['admin'],
          summary: SUMMARIES[action],
          params,
          response: { 200: okSchema, ...errors },
        },
      },
      async (request) => {
        await actOnUser(ctx, request.params.id, action, await acting(request));
        nudgeOutbox();
        return { ok: true as const };
      },
    );
  }

  app.post(
    '/api/admin/users/:id/set-role',
    {
      schema: {
        tags: ['admin'],
        summary: 'Make a user an admin, or not (fresh proof; never the last active admin)',
        params,
        body: roleInputSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await setRole(ctx, request.params.id, request.body.role, await acting(request));
      nudgeOutbox();
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Delete an account: personal data erased, the audit trail kept without them (fresh proof)',
        params,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await deleteAccount(ctx, request.params.id, await acting(request));
      nudgeOutbox();
      return { ok: true as const };
    },
  );
};
