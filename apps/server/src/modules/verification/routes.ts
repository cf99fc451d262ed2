import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeSentSchema,
  currentUserSchema,
  emailSendInputSchema,
  emailVerifyInputSchema,
  errorEnvelopeSchema,
  okSchema,
  phoneChangeInputSchema,
  phoneVerifyInputSchema,
  verificationStatusSchema,
} from '@hygie/domain';
import { z } from 'zod';
import { replyWithProgress, requestMeta } from '../../plugins/stage-reply.js';
import type { RouteDeps } from '../route-deps.js';
import { COMPLETE } from '../sessions/service.js';
import {
  changePhone,
  resendPhoneCode,
  sendEmailVerification,
  verifyEmail,
  verifyPhone,
} from './service.js';

const EMAIL_STAGES = ['email_not_verified', COMPLETE];
// The mobile number is a recovery channel (SMS reset, SMS second factor): these routes set it only
// at the sign-in stage that asks for it, moments after the password and the second factor. Once
// signed in, the number changes in the profile, with the current password (security.md).
const PHONE_STAGES = ['mobile_phone_not_verified'];
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
      config: { auth: 'session' },
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
      config: { auth: 'optional' },
      schema: {
        tags: ['verification'],
        summary: 'Send an e-mail verification code (again)',
        body: emailSendInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await optionalSession(request, EMAIL_STAGES);
      const sent = await sendEmailVerification(
        ctx,
        session ? { userId: session.user_id, email: session.user.email } : null,
        request.body.email,
        requestMeta(request),
      );
      nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/verification/email/verify',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['verification'],
        summary: 'Verify the e-mail address with its code',
        body: emailVerifyInputSchema,
        response: { 200: z.union([currentUserSchema, okSchema]), ...errors },
      },
    },
    async (request, reply) => {
      const session = await optionalSession(request, EMAIL_STAGES);
      const progress = await verifyEmail(
        ctx,
        session ? { id: session.id, userId: session.user_id } : null,
        request.body,
        requestMeta(request),
      );
      if (!progress) return { ok: true as const };
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );

  app.post(
    '/api/verification/mobile-phone/change',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['verification'],
        summary: 'Set the mobile phone number and send it a code',
        body: phoneChangeInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, PHONE_STAGES);
      const sent = await changePhone(
        ctx,
        session.user_id,
        request.body.phone,
        requestMeta(request),
      );
      nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/verification/mobile-phone/send',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['verification'],
        summary: 'Send the phone verification code again',
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, PHONE_STAGES);
      const sent = await resendPhoneCode(
        ctx,
        session.user_id,
        session.user.phone,
        requestMeta(request),
      );
      nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/verification/mobile-phone/verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['verification'],
        summary: 'Verify the mobile phone with its SMS code',
        body: phoneVerifyInputSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, PHONE_STAGES);
      const progress = await verifyPhone(
        ctx,
        { id: session.id, userId: session.user_id },
        request.body.code,
        requestMeta(request),
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );
};
