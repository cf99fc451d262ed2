import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  okSchema,
  totpConfirmedSchema,
  totpConfirmInputSchema,
  totpEnrolInputSchema,
  totpEnrolmentSchema,
  totpRemoveInputSchema,
  totpStatusSchema,
} from '@hygie/domain';
import { requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { proveNow } from '../step-up/service.js';
import { findUserById } from '../users/service.js';
import { AppError } from '../../lib/app-error.js';
import { firstRecoveryCodes } from '../recovery-codes/service.js';
import { confirmTotp, removeTotp, startTotpEnrolment, totpStatusOf } from './service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

/** The account's authenticator app (TOTP): status, enrolment with its first code, removal. */
export const totpRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession, nudgeOutbox },
) => {
  app.get(
    '/api/me/totp',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'Whether my account has an authenticator app, and since when',
        response: { 200: totpStatusSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const user = await findUserById(ctx.db, session.user_id);
      if (!user) throw new AppError('not_logged_in');
      return totpStatusOf(user);
    },
  );

  app.post(
    '/api/me/totp',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'Start enrolling an authenticator app (the current password, or a proof in the last 5 minutes): its otpauth URI, shown once',
        body: totpEnrolInputSchema,
        response: { 200: totpEnrolmentSchema, 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await proveNow(ctx, session, request.body.currentPassword);
      return startTotpEnrolment(ctx, session.user_id, requestMeta(request));
    },
  );

  app.post(
    '/api/me/totp/confirm',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'Confirm the pending authenticator app with a first code: it becomes a second factor (and the first recovery codes come, when none are left)',
        body: totpConfirmInputSchema,
        response: { 200: totpConfirmedSchema, 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const status = await confirmTotp(
        ctx,
        session.user_id,
        request.body.code,
        requestMeta(request),
      );
      const recoveryCodes = await firstRecoveryCodes(ctx, session.user_id, requestMeta(request));
      nudgeOutbox();
      return recoveryCodes ? { ...status, recoveryCodes } : status;
    },
  );

  app.delete(
    '/api/me/totp',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'Remove my authenticator app (the current password, or a proof in the last 5 minutes)',
        body: totpRemoveInputSchema.optional(),
        response: { 200: okSchema, 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await proveNow(ctx, session, request.body?.currentPassword);
      await removeTotp(ctx, session.user_id, requestMeta(request));
      nudgeOutbox();
      return { ok: true as const };
    },
  );
};
