import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  biometricChallengeSchema,
  biometricCredentialListSchema,
  currentUserSchema,
  errorEnvelopeSchema,
  nativeEnrolSchema,
  nativeInvalidatedSchema,
  nativeLoginChallengeInputSchema,
  nativeLoginSchema,
  okSchema,
  passkeyEnrolledSchema,
  webauthnAuthenticationOptionsInputSchema,
  webauthnAuthenticationVerifySchema,
  webauthnRegistrationVerifySchema,
} from '@hygie/domain';
import { z } from 'zod';
import { issueXsrf } from '../../plugins/csrf.js';
import { replyWithProgress, requestMeta } from '../../plugins/stage-reply.js';
import type { LoginResult } from '../auth/service.js';
import type { RouteDeps } from '../route-deps.js';
import { firstRecoveryCodes } from '../recovery-codes/service.js';
import { assertRecentProof } from '../step-up/service.js';
import {
  enrolNativeKey,
  enrolPasskey,
  listMyKeys,
  nativeEnrolmentChallenge,
  nativeKeyInvalidated,
  passkeyEnrolmentOptions,
  revokeMyKey,
} from './service.js';
import type { SignInAttempt } from '../auth/service.js';
import {
  nativeSignInChallenge,
  passkeySignInOptions,
  signInWithNativeKey,
  signInWithPasskey,
} from './sign-in.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  423: errorEnvelopeSchema,
};
const anyJson = z.record(z.string(), z.unknown());
const ceremonySchema = z.object({ challengeId: z.string(), options: anyJson });

/** Biometric sign-in: WebAuthn passkeys (browsers) and the mobile app's keys (native bridge). */
export const biometricsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { ctx, cookies, requireSession, nudgeOutbox } = deps;

  function attemptOf(request: FastifyRequest): SignInAttempt {
    return {
      meta: requestMeta(request),
      deviceToken: request.cookies[cookies.deviceCookie],
      previousToken: request.cookies[cookies.sessionCookie],
    };
  }

  /**
   * A key that signs in is enrolled only by a session proven in the last 5 minutes (the sign-in,
   * the second factor or POST /api/session/reauthenticate), else 403 reauthentication_required.
   */
  async function enrollingSession(request: FastifyRequest) {
    const session = await requireSession(request);
    assertRecentProof(ctx, session);
    return session;
  }

  /** Sets the cookies of the session a biometric sign-in opened, like a password sign-in does. */
  function replyWithSession(request: FastifyRequest, reply: FastifyReply, result: LoginResult) {
    cookies.setSession(reply, result.token);
    issueXsrf(reply, cookies, ctx.secret, result.token);
    return replyWithProgress(ctx, cookies, request, reply, result.progress);
  }

  // ---- WebAuthn (browsers) ----
  app.post(
    '/api/biometrics/webauthn/registration/options',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['biometrics'],
        summary: 'Options to create a passkey (platform authenticator, user verification required)',
        response: { 200: ceremonySchema, ...errors },
      },
    },
    async (request) => {
      const session = await enrollingSession(request);
      return passkeyEnrolmentOptions(ctx, session.user, request.brand);
    },
  );

  app.post(
    '/api/biometrics/webauthn/registration/verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['biometrics'],
        summary: 'Store the new passkey (and the first recovery codes come, when none are left)',
        body: webauthnRegistrationVerifySchema,
        response: { 200: passkeyEnrolledSchema, ...errors },
      },
    },
    async (request) => {
      const session = await enrollingSession(request);
      await enrolPasskey(ctx, session.user_id, request.body, requestMeta(request));
      const recoveryCodes = await firstRecoveryCodes(ctx, session.user_id, requestMeta(request));
      nudgeOutbox();
      return recoveryCodes ? { ok: true as const, recoveryCodes } : { ok: true as const };
    },
  );

  app.post(
    '/api/biometrics/webauthn/authentication/options',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['biometrics'],
        summary: 'Options to sign in with a passkey',
        body: webauthnAuthenticationOptionsInputSchema,
        response: { 200: ceremonySchema, ...errors },
      },
    },
    // A name, when the client sends one, is ignored: the sign-in is discoverable.
    async () => passkeySignInOptions(ctx),
  );

  app.post(
    '/api/biometrics/webauthn/authentication/verify',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['biometrics'],
        summary: 'Sign in with a passkey',
        body: webauthnAuthenticationVerifySchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await signInWithPasskey(ctx, request.body, attemptOf(request));
      return replyWithSession(request, reply, result);
    },
  );

  // ---- Native app bridge (docs/native-bridge.md) ----
  app.post(
    '/api/biometrics/native/enrol/challenge',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['biometrics'],
        summary: 'A challenge the app signs with its new key',
        response: { 200: biometricChallengeSchema, ...errors },
      },
    },
    async (request) => {
      const session = await enrollingSession(request);
      return nativeEnrolmentChallenge(ctx, session.user_id);
    },
  );

  app.post(
    '/api/biometrics/native/enrol',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['biometrics'],
        summary: 'Store the app key (P-256 SPKI) after checking its signature of the challenge',
        body: nativeEnrolSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await enrollingSession(request);
      await enrolNativeKey(ctx, session.user_id, request.body, requestMeta(request));
      nudgeOutbox();
      return { ok: true as const };
    },
  );

  app.post(
    '/api/biometrics/native/login/challenge',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['biometrics'],
        summary: 'A sign-in challenge for the app to sign',
        body: nativeLoginChallengeInputSchema,
        response: { 200: biometricChallengeSchema, ...errors },
      },
    },
    async () => nativeSignInChallenge(ctx),
  );

  app.post(
    '/api/biometrics/native/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['biometrics'],
        summary: 'Sign in with the challenge signed by the app key',
        body: nativeLoginSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await signInWithNativeKey(ctx, request.body, attemptOf(request));
      return replyWithSession(request, reply, result);
    },
  );

  app.post(
    '/api/biometrics/native/invalidated',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['biometrics'],
        summary:
          'The app reports its key invalidated (new fingerprint): the signed-in owner’s key is revoked',
        body: nativeInvalidatedSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await nativeKeyInvalidated(ctx, session.user_id, request.body.keyId, request.ip);
      return { ok: true as const };
    },
  );

  // ---- My keys ----
  app.get(
    '/api/biometrics/credentials',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['biometrics'],
        summary: 'My biometric keys',
        response: { 200: biometricCredentialListSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return listMyKeys(ctx, session.user_id);
    },
  );

  app.delete(
    '/api/biometrics/credentials/:id',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['biometrics'],
        summary: 'Revoke one of my biometric keys',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: okSchema, ...errors, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await revokeMyKey(ctx, session.user_id, request.params.id, request.ip);
      return { ok: true as const };
    },
  );
};
