import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeSentSchema,
  CODES,
  currentUserSchema,
  errorEnvelopeSchema,
  maskEmail,
  maskPhone,
  mfaDataSchema,
  mfaSendInputSchema,
  mfaVerifyInputSchema,
} from '@hygie/domain';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { finishStage, secondFactorStage } from '../auth/service.js';
import { mfaData } from '../sessions/service.js';
import { replyWithProgress, requestMeta } from '../auth/respond.js';
import { issueCode, verifyCode } from '../codes/service.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';

const STAGE = ['two_factor_authentication_required'];
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

/** The second factor: a code by e-mail, or by SMS to a verified phone. */
export const mfaRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession, nudgeOutbox },
) => {
  app.get(
    '/api/mfa',
    {
      schema: {
        tags: ['mfa'],
        summary: 'Providers and masked hints of the pending second factor',
        response: { 200: mfaDataSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, STAGE);
      return mfaData({ ...session.user, id: session.user_id });
    },
  );

  app.post(
    '/api/mfa/send',
    {
      schema: {
        tags: ['mfa'],
        summary: 'Send a second-factor code by e-mail or SMS',
        body: mfaSendInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, STAGE);
      const user = await findUserById(ctx.db, session.user_id);
      if (!user) throw new AppError('not_logged_in');
      const { provider } = request.body;
      const sms = provider === 'sms';
      if (sms && (!user.phone || user.phone_verified_at === null)) {
        throw new AppError('validation_error', {
          fields: [{ path: 'provider', message: 'phone_invalid' }],
        });
      }
      const destination = sms ? (user.phone ?? '') : user.email;
      await ctx.db.transaction().execute(async (trx) => {
        const code = await issueCode(ctx, trx, user.id, sms ? 'mfa_sms' : 'mfa_email', destination);
        await enqueueMessage(trx, ctx.clock, {
          channel: provider,
          recipient: destination,
          template: 'mfa_code',
          language: request.language,
          brand: request.brand,
          params: { code },
        });
      });
      nudgeOutbox();
      return {
        destination: sms ? maskPhone(destination) : maskEmail(destination),
        retryAfterSeconds: CODES.resendCooldownSeconds,
      };
    },
  );

  app.post(
    '/api/mfa/verify',
    {
      schema: {
        tags: ['mfa'],
        summary: 'Verify the second-factor code; optionally trust this device',
        body: mfaVerifyInputSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, STAGE);
      const { provider, code, trustDevice: trust } = request.body;
      await verifyCode(ctx, session.user_id, provider === 'sms' ? 'mfa_sms' : 'mfa_email', code);
      const { progress, outcome } = await finishStage(
        ctx,
        { ...requestMeta(request), userId: session.user_id, sessionId: session.id },
        secondFactorStage,
        { provider, trustDevice: trust },
      );
      if (outcome.device) cookies.setDevice(reply, outcome.device.token, outcome.device.expiresAt);
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );
};
