import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Brand, Language } from '@hygie/domain';
import {
  codeSentSchema,
  CODES,
  currentUserSchema,
  emailSendInputSchema,
  emailVerifyInputSchema,
  errorEnvelopeSchema,
  maskEmail,
  maskPhone,
  okSchema,
  phoneChangeInputSchema,
  phoneVerifyInputSchema,
  verificationStatusSchema,
} from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import {
  advanceSession,
  emailVerificationStage,
  finishStage,
  phoneVerificationStage,
} from '../auth/service.js';
import { replyWithProgress, requestMeta } from '../auth/respond.js';
import { issueCode, verifyCode } from '../codes/service.js';
import type { RouteDeps } from '../route-deps.js';
import { COMPLETE } from '../sessions/service.js';
import { findUserByEmail, findUserById } from '../users/repository.js';

const EMAIL_STAGES = ['email_not_verified', COMPLETE];
const PHONE_STAGES = ['mobile_phone_not_verified', COMPLETE];
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

/** E-mail and mobile phone verification: as a sign-in stage, or from the e-mailed link (anonymous). */
export const verificationRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { ctx, cookies, requireSession, nudgeOutbox } = deps;

  /** The session's user, if the caller has a session at one of `stages`; undefined when anonymous. */
  async function optionalSession(request: Parameters<typeof requireSession>[0], stages: string[]) {
    if (!request.cookies[cookies.sessionCookie]) return undefined;
    return requireSession(request, stages);
  }

  app.get(
    '/api/verification',
    {
      schema: {
        tags: ['verification'],
        summary: 'What is verified for the signed-in user',
        response: { 200: verificationStatusSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, [...EMAIL_STAGES, 'mobile_phone_not_verified']);
      return {
        email: session.user.email,
        emailVerified: session.user.email_verified_at !== null,
        mobile_phone: session.user.phone,
        mobilePhoneVerified: session.user.phone_verified_at !== null,
      };
    },
  );

  app.post(
    '/api/verification/email/send',
    {
      schema: {
        tags: ['verification'],
        summary: 'Send an e-mail verification code (again)',
        body: emailSendInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await optionalSession(request, EMAIL_STAGES);
      const email = session?.user.email ?? request.body.email;
      if (!email)
        throw new AppError('validation_error', {
          fields: [{ path: 'email', message: 'field_required' }],
        });
      const user = session
        ? await findUserById(ctx.db, session.user_id)
        : await findUserByEmail(ctx.db, email);
      // Anonymous callers get the same answer whether the address has an account or not.
      if (user && user.email_verified_at === null) {
        await ctx.db.transaction().execute(async (trx) => {
          const code = await issueCode(ctx, trx, user.id, 'email_verification', user.email);
          await enqueueMessage(trx, ctx.clock, {
            channel: 'email',
            recipient: user.email,
            template: 'verification_code',
            language: request.language,
            brand: request.brand,
            params: { code, link: verifyLink(ctx.config.publicUrl, user.email, code) },
          });
        });
        nudgeOutbox();
      }
      return { destination: maskEmail(email), retryAfterSeconds: CODES.resendCooldownSeconds };
    },
  );

  app.post(
    '/api/verification/email/verify',
    {
      schema: {
        tags: ['verification'],
        summary: 'Verify the e-mail address with its code',
        body: emailVerifyInputSchema,
        response: { 200: z.union([currentUserSchema, okSchema]), ...errors },
      },
    },
    async (request, reply) => {
      const session = await optionalSession(request, EMAIL_STAGES);
      const user = session
        ? await findUserById(ctx.db, session.user_id)
        : request.body.email
          ? await findUserByEmail(ctx.db, request.body.email)
          : undefined;
      if (!user) throw new AppError('code_invalid');
      if (user.email_verified_at === null) {
        await verifyCode(ctx, user.id, 'email_verification', request.body.code);
        if (!session) {
          // From the e-mailed link, without a session: only the address becomes verified.
          const actor = { ...requestMeta(request), userId: user.id, sessionId: null };
          await emailVerificationStage.complete(ctx, ctx.db, actor);
          return { ok: true as const };
        }
        const actor = { ...requestMeta(request), userId: user.id, sessionId: session.id };
        const { progress } = await finishStage(ctx, actor, emailVerificationStage, undefined);
        return replyWithProgress(ctx, cookies, request, reply, progress);
      }
      if (!session) return { ok: true as const };
      const progress = await advanceSession(
        ctx,
        session.id,
        session.user_id,
        requestMeta(request),
        { rotate: true },
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );

  app.post(
    '/api/verification/mobile-phone/change',
    {
      schema: {
        tags: ['verification'],
        summary: 'Set the mobile phone number and send it a code',
        body: phoneChangeInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, PHONE_STAGES);
      const phone = request.body.phone;
      await ctx.db.transaction().execute(async (trx) => {
        const now = ctx.clock.now();
        await trx
          .updateTable('users')
          .set({ phone, phone_verified_at: null, updated_at: now })
          .where('id', '=', session.user_id)
          .execute();
        await sendPhoneCode(trx, session.user_id, phone, request.language, request.brand);
      });
      nudgeOutbox();
      return { destination: maskPhone(phone), retryAfterSeconds: CODES.resendCooldownSeconds };
    },
  );

  app.post(
    '/api/verification/mobile-phone/send',
    {
      schema: {
        tags: ['verification'],
        summary: 'Send the phone verification code again',
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, PHONE_STAGES);
      const phone = session.user.phone;
      if (!phone)
        throw new AppError('validation_error', {
          fields: [{ path: 'phone', message: 'field_required' }],
        });
      await ctx.db
        .transaction()
        .execute((trx) =>
          sendPhoneCode(trx, session.user_id, phone, request.language, request.brand),
        );
      nudgeOutbox();
      return { destination: maskPhone(phone), retryAfterSeconds: CODES.resendCooldownSeconds };
    },
  );

  app.post(
    '/api/verification/mobile-phone/verify',
    {
      schema: {
        tags: ['verification'],
        summary: 'Verify the mobile phone with its SMS code',
        body: phoneVerifyInputSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, PHONE_STAGES);
      const { destination } = await verifyCode(
        ctx,
        session.user_id,
        'phone_verification',
        request.body.code,
      );
      const { progress } = await finishStage(
        ctx,
        { ...requestMeta(request), userId: session.user_id, sessionId: session.id },
        phoneVerificationStage,
        { phone: destination },
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );

  async function sendPhoneCode(
    trx: typeof ctx.db,
    userId: string,
    phone: string,
    language: Language,
    brand: Brand,
  ) {
    const code = await issueCode(ctx, trx, userId, 'phone_verification', phone);
    await enqueueMessage(trx, ctx.clock, {
      channel: 'sms',
      recipient: phone,
      template: 'verification_code',
      language,
      brand,
      params: { code },
    });
  }
};

/** The link in the verification e-mail: the verify-email page with the address and code filled in. */
export function verifyLink(publicUrl: URL, email: string, code: string): string {
  const url = new URL('/security/verify-email', publicUrl);
  url.searchParams.set('email', email);
  url.searchParams.set('code', code);
  return url.href;
}
