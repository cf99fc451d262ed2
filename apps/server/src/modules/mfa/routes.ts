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
import { mfaData } from '../auth/stages.js';
import { progressSession } from '../auth/progress.js';
import { replyWithProgress, requestMeta } from '../auth/respond.js';
import { issueCode, verifyCode } from '../codes/service.js';
import { trustDevice } from '../devices/service.js';
import type { RouteDeps } from '../route-deps.js';
import { loadSettings } from '../settings/service.js';
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
      const now = ctx.clock.now();
      const meta = requestMeta(request);
      await ctx.db.transaction().execute(async (trx) => {
        let deviceId: string | null = null;
        if (trust) {
          const settings = await loadSettings(ctx, trx);
          const device = await trustDevice(
            ctx,
            trx,
            session.user_id,
            meta,
            settings.TRUSTED_DEVICE_DAYS,
          );
          cookies.setDevice(reply, device.token, device.expiresAt);
          deviceId = device.id;
        }
        await trx
          .updateTable('sessions')
          .set({ mfa_verified_at: now, ...(deviceId ? { trusted_device_id: deviceId } : {}) })
          .where('id', '=', session.id)
          .execute();
        // A code received by e-mail proves the address: no separate verification needed.
        if (provider === 'email' && session.user.email_verified_at === null) {
          await trx
            .updateTable('users')
            .set({ email_verified_at: now })
            .where('id', '=', session.user_id)
            .execute();
        }
      });
      const progress = await progressSession(ctx, session.id, session.user_id, meta, {
        rotate: true,
      });
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );
};
