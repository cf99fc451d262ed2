import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeSentSchema,
  errorEnvelopeSchema,
  mfaSendInputSchema,
  okSchema,
  reauthenticateInputSchema,
  stepUpCodeInputSchema,
} from '@hygie/domain';
import { sendSecondFactorCode } from '../mfa/service.js';
import type { RouteDeps } from '../route-deps.js';
import { reauthenticate, stepUpSecondFactor } from './service.js';

/** The step-up before a sensitive change (security.md): the password, re-entered. */
export const stepUpRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { ctx, requireSession } = deps;

  app.post(
    '/api/session/reauthenticate',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary:
          'Confirm the password: for 5 minutes this session may enrol a passkey or a biometric key',
        body: reauthenticateInputSchema,
        response: {
          200: okSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await reauthenticate(ctx, session, request.body.password, request.ip);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/session/second-factor/send',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary:
          'Send a code by e-mail or SMS to confirm the signed-in user again (the step-up before an admin act that cuts access)',
        body: mfaSendInputSchema,
        response: {
          200: codeSentSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const sent = await sendSecondFactorCode(ctx, session.user_id, request.body.provider, {
        language: request.language,
        brand: request.brand,
        ip: request.ip,
      });
      deps.nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/session/second-factor/verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary:
          'Check that code: for 5 minutes this session counts as having passed a second factor',
        body: stepUpCodeInputSchema,
        response: {
          200: okSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await stepUpSecondFactor(ctx, session, request.body, {
        ip: request.ip,
        language: request.language,
        brand: request.brand,
      });
      deps.nudgeOutbox();
      return { ok: true as const };
    },
  );
};
