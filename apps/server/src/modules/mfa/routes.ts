import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeSentSchema,
  currentUserSchema,
  errorEnvelopeSchema,
  mfaDataSchema,
  mfaSendInputSchema,
  mfaVerifyInputSchema,
  recoveryCodeUsedSchema,
} from '@hygie/domain';
import { mfaData } from '../sessions/service.js';
import { replyWithProgress, requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { sendSecondFactorCode, verifySecondFactor } from './service.js';

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
      config: { auth: 'session' },
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
      config: { auth: 'session' },
      schema: {
        tags: ['mfa'],
        summary: 'Send a second-factor code by e-mail or SMS',
        body: mfaSendInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, STAGE);
      const sent = await sendSecondFactorCode(
        ctx,
        session.user_id,
        request.body.provider,
        requestMeta(request),
      );
      nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/mfa/verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['mfa'],
        summary: 'Verify the second-factor code; optionally trust this device',
        body: mfaVerifyInputSchema,
        response: {
          200: currentUserSchema.extend(recoveryCodeUsedSchema.partial().shape),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, STAGE);
      const { progress, device, recoveryCodesLeft } = await verifySecondFactor(
        ctx,
        { id: session.id, userId: session.user_id },
        request.body,
        requestMeta(request),
      );
      if (device) cookies.setDevice(reply, device.token, device.expiresAt);
      nudgeOutbox();
      // After a recovery code, the answer says how many are left (the web tells the user).
      const answer =
        progress.complete && recoveryCodesLeft !== null
          ? { ...progress, user: { ...progress.user, recoveryCodesLeft } }
          : progress;
      return replyWithProgress(ctx, cookies, request, reply, answer);
    },
  );
};
