import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeSentSchema,
  currentUserSchema,
  errorEnvelopeSchema,
  forgotPasswordInputSchema,
  forgotPasswordVerifyInputSchema,
  okSchema,
  passwordRenewInputSchema,
  passwordResetInputSchema,
  resetTokenSchema,
} from '@hygie/domain';
import { replyWithProgress, requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { renewPassword, resetPassword, sendResetCode, verifyResetCode } from './service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

/** Password renewal (sign-in stage), forgotten password (by e-mail or SMS code), reset. */
export const passwordRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession, nudgeOutbox },
) => {
  app.post(
    '/api/password/renew',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['password'],
        summary: 'Set a new password when it expired or must be created',
        body: passwordRenewInputSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, [
        'password_expired',
        'password_creation_required',
      ]);
      const progress = await renewPassword(
        ctx,
        { id: session.id, userId: session.user_id, stage: session.stage },
        request.body.password,
        requestMeta(request),
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );

  app.post(
    '/api/password/forgot',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['password'],
        summary: 'Send a reset code by e-mail or SMS (same answer for unknown accounts)',
        body: forgotPasswordInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const sent = await sendResetCode(ctx, request.body, requestMeta(request));
      nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/password/forgot/verify',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['password'],
        summary: 'Check the reset code; returns a short-lived reset token',
        body: forgotPasswordVerifyInputSchema,
        response: { 200: resetTokenSchema, ...errors },
      },
    },
    (request) => verifyResetCode(ctx, request.body),
  );

  app.post(
    '/api/password/reset',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['password'],
        summary: 'Set the new password; ends every session and trusted device',
        body: passwordResetInputSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await resetPassword(ctx, request.body, requestMeta(request));
      nudgeOutbox();
      return { ok: true as const };
    },
  );
};
