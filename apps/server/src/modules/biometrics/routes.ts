import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  biometricChallengeSchema,
  biometricCredentialListSchema,
  BRAND_NAMES,
  currentUserSchema,
  errorEnvelopeSchema,
  nativeEnrolSchema,
  nativeInvalidatedSchema,
  nativeLoginChallengeInputSchema,
  nativeLoginSchema,
  okSchema,
  webauthnAuthenticationOptionsInputSchema,
  webauthnAuthenticationVerifySchema,
  webauthnRegistrationVerifySchema,
} from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { issueXsrf } from '../../plugins/csrf.js';
import { recordAudit } from '../audit/service.js';
import { replyWithProgress, requestMeta } from '../auth/respond.js';
import { findByUsername } from '../auth/service.js';
import type { RouteDeps } from '../route-deps.js';
import { closeSession } from '../sessions/service.js';
import { findUserById } from '../users/repository.js';
import { queueSecurityNotice } from '../users/notices.js';
import { consumeChallenge, createChallenge } from './challenges.js';
import { isP256PublicKey, verifyNativeSignature } from './native-keys.js';
import { signInWithCredential } from './sign-in.js';
import type { LoginResult } from '../auth/service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  423: errorEnvelopeSchema,
};
const anyJson = z.record(z.string(), z.unknown());

/** Biometric sign-in: WebAuthn passkeys (browsers) and the mobile app's keys (native bridge). */
export const biometricsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { ctx, cookies, requireSession, nudgeOutbox } = deps;
  const rpID = ctx.config.publicUrl.hostname;
  const origin = ctx.config.publicUrl.origin;

  /** Opens the session of a biometric sign-in, like a password sign-in does. */
  async function finishSignIn(
    request: Parameters<typeof requireSession>[0],
    reply: Parameters<typeof replyWithProgress>[3],
    result: LoginResult,
  ) {
    const previous = request.cookies[cookies.sessionCookie];
    if (previous) await closeSession(ctx, previous);
    cookies.setSession(reply, result.token, result.absoluteExpiresAt);
    issueXsrf(reply, cookies, ctx.secret, result.token);
    return replyWithProgress(ctx, cookies, request, reply, result.progress);
  }

  async function storeCredential(
    userId: string,
    values: {
      kind: 'webauthn' | 'native';
      credentialId: string;
      publicKey: string;
      counter: number;
      transports: string[] | null;
      deviceName: string;
    },
    request: Parameters<typeof requireSession>[0],
  ) {
    const user = await findUserById(ctx.db, userId);
    if (!user) throw new AppError('not_logged_in');
    const now = ctx.clock.now();
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('credentials')
          .values({
            id: newId(),
            user_id: userId,
            kind: values.kind,
            credential_id: values.credentialId,
            public_key: values.publicKey,
            counter: values.counter,
            transports: values.transports ? JSON.stringify(values.transports) : null,
            device_name: values.deviceName,
            user_verifying: 1,
            created_at: now,
            last_used_at: null,
            revoked_at: null,
          })
          .execute();
        await queueSecurityNotice(ctx, trx, user, 'biometric_added', request, {
          device: values.deviceName,
        });
        await recordAudit(trx, ctx.clock, {
          action: 'biometric_enrolled',
          actorId: userId,
          targetId: userId,
          ip: request.ip,
          details: { kind: values.kind },
        });
      });
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('biometric_enrolment_failed');
    }
    nudgeOutbox();
  }

  // ---- WebAuthn (browsers) ----
  app.post(
    '/api/biometrics/webauthn/registration/options',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'Options to create a passkey (platform authenticator, user verification required)',
        response: { 200: z.object({ challengeId: z.string(), options: anyJson }), ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const existing = await ctx.db
        .selectFrom('credentials')
        .select(['credential_id', 'transports'])
        .where('user_id', '=', session.user_id)
        .where('kind', '=', 'webauthn')
        .where('revoked_at', 'is', null)
        .execute();
      const { challengeId, challenge } = await createChallenge(
        ctx,
        'webauthn_register',
        session.user_id,
      );
      const options = await generateRegistrationOptions({
        rpName: BRAND_NAMES[request.brand],
        rpID,
        userName: session.user.email,
        userID: new TextEncoder().encode(session.user_id),
        userDisplayName:
          [session.user.first_name, session.user.last_name].filter(Boolean).join(' ') ||
          session.user.email,
        // The stored challenge is base64url: the ceremony signs its bytes, so the browser's
        // clientDataJSON carries this same string (a string here would be UTF-8 encoded again).
        challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
        attestationType: 'none',
        excludeCredentials: existing.map((c) => ({
          id: c.credential_id,
          transports: c.transports ? (JSON.parse(c.transports) as string[]) : undefined,
        })),
        authenticatorSelection: {
          authenticatorAttachment: 'platform',
          userVerification: 'required',
          residentKey: 'preferred',
        },
      });
      return { challengeId, options: options as unknown as Record<string, unknown> };
    },
  );

  app.post(
    '/api/biometrics/webauthn/registration/verify',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'Store the new passkey',
        body: webauthnRegistrationVerifySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const challenge = await consumeChallenge(
        ctx,
        request.body.challengeId,
        'webauthn_register',
        session.user_id,
      );
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response: request.body.response as unknown as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch {
        throw new AppError('biometric_enrolment_failed');
      }
      if (!verification.verified) throw new AppError('biometric_enrolment_failed');
      const { credential } = verification.registrationInfo;
      await storeCredential(
        session.user_id,
        {
          kind: 'webauthn',
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? null,
          deviceName: request.body.deviceName,
        },
        request,
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/api/biometrics/webauthn/authentication/options',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'Options to sign in with a passkey',
        body: webauthnAuthenticationOptionsInputSchema,
        response: { 200: z.object({ challengeId: z.string(), options: anyJson }), ...errors },
      },
    },
    async (request) => {
      // With a name, only that account's keys are allowed; an unknown name looks the same (no list).
      const user = request.body.username
        ? await findByUsername(ctx.db, request.body.username)
        : undefined;
      const keys = user
        ? await ctx.db
            .selectFrom('credentials')
            .select(['credential_id', 'transports'])
            .where('user_id', '=', user.id)
            .where('kind', '=', 'webauthn')
            .where('revoked_at', 'is', null)
            .execute()
        : [];
      const { challengeId, challenge } = await createChallenge(ctx, 'webauthn_login', null);
      const options = await generateAuthenticationOptions({
        rpID,
        // The stored challenge is base64url: the ceremony signs its bytes, so the browser's
        // clientDataJSON carries this same string (a string here would be UTF-8 encoded again).
        challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
        userVerification: 'required',
        allowCredentials: keys.map((c) => ({
          id: c.credential_id,
          transports: c.transports ? (JSON.parse(c.transports) as string[]) : undefined,
        })),
      });
      return { challengeId, options: options as unknown as Record<string, unknown> };
    },
  );

  app.post(
    '/api/biometrics/webauthn/authentication/verify',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'Sign in with a passkey',
        body: webauthnAuthenticationVerifySchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const challenge = await consumeChallenge(ctx, request.body.challengeId, 'webauthn_login');
      const response = request.body.response as unknown as AuthenticationResponseJSON;
      const credential =
        typeof response.id === 'string'
          ? await ctx.db
              .selectFrom('credentials')
              .selectAll()
              .where('kind', '=', 'webauthn')
              .where('credential_id', '=', response.id)
              .executeTakeFirst()
          : undefined;
      if (!credential) throw new AppError('biometric_verification_failed');
      if (credential.revoked_at !== null) throw new AppError('biometric_key_invalidated');
      let verification;
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: credential.credential_id,
            publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
            counter: Number(credential.counter),
            transports: credential.transports
              ? (JSON.parse(credential.transports) as never)
              : undefined,
          },
        });
      } catch {
        throw new AppError('biometric_verification_failed');
      }
      if (!verification.verified) throw new AppError('biometric_verification_failed');
      await ctx.db
        .updateTable('credentials')
        .set({ counter: verification.authenticationInfo.newCounter })
        .where('id', '=', credential.id)
        .execute();
      const result = await signInWithCredential(
        ctx,
        credential,
        verification.authenticationInfo.userVerified,
        requestMeta(request),
        request.cookies[cookies.deviceCookie],
      );
      return finishSignIn(request, reply, result);
    },
  );

  // ---- Native app bridge (docs/native-bridge.md) ----
  app.post(
    '/api/biometrics/native/enrol/challenge',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'A challenge the app signs with its new key',
        response: { 200: biometricChallengeSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return createChallenge(ctx, 'native_enrol', session.user_id);
    },
  );

  app.post(
    '/api/biometrics/native/enrol',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'Store the app key (P-256 SPKI) after checking its signature of the challenge',
        body: nativeEnrolSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const { challengeId, keyId, publicKey, signature, deviceName } = request.body;
      const challenge = await consumeChallenge(ctx, challengeId, 'native_enrol', session.user_id);
      if (!isP256PublicKey(publicKey) || !verifyNativeSignature(publicKey, challenge, signature)) {
        throw new AppError('biometric_enrolment_failed');
      }
      await storeCredential(
        session.user_id,
        {
          kind: 'native',
          credentialId: keyId,
          publicKey,
          counter: 0,
          transports: null,
          deviceName,
        },
        request,
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/api/biometrics/native/login/challenge',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'A sign-in challenge for the app to sign',
        body: nativeLoginChallengeInputSchema,
        response: { 200: biometricChallengeSchema, ...errors },
      },
    },
    async () => createChallenge(ctx, 'native_login', null),
  );

  app.post(
    '/api/biometrics/native/login',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'Sign in with the challenge signed by the app key',
        body: nativeLoginSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { challengeId, keyId, signature } = request.body;
      const challenge = await consumeChallenge(ctx, challengeId, 'native_login');
      const credential = await ctx.db
        .selectFrom('credentials')
        .selectAll()
        .where('kind', '=', 'native')
        .where('credential_id', '=', keyId)
        .executeTakeFirst();
      if (!credential) throw new AppError('biometric_verification_failed');
      if (credential.revoked_at !== null) throw new AppError('biometric_key_invalidated');
      if (!verifyNativeSignature(credential.public_key, challenge, signature))
        throw new AppError('biometric_verification_failed');
      const result = await signInWithCredential(
        ctx,
        credential,
        true,
        requestMeta(request),
        request.cookies[cookies.deviceCookie],
      );
      return finishSignIn(request, reply, result);
    },
  );

  app.post(
    '/api/biometrics/native/invalidated',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'The app reports its key invalidated (new fingerprint): the key is revoked',
        body: nativeInvalidatedSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const now = ctx.clock.now();
      const revoked = await ctx.db
        .updateTable('credentials')
        .set({ revoked_at: now })
        .where('kind', '=', 'native')
        .where('credential_id', '=', request.body.keyId)
        .where('revoked_at', 'is', null)
        .returning(['user_id'])
        .executeTakeFirst();
      if (revoked)
        await recordAudit(ctx.db, ctx.clock, {
          action: 'biometric_invalidated',
          targetId: revoked.user_id,
          ip: request.ip,
        });
      return { ok: true as const };
    },
  );

  // ---- My keys ----
  app.get(
    '/api/biometrics/credentials',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'My biometric keys',
        response: { 200: biometricCredentialListSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const rows = await ctx.db
        .selectFrom('credentials')
        .selectAll()
        .where('user_id', '=', session.user_id)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((c) => ({
        id: c.id,
        kind: c.kind,
        deviceName: c.device_name,
        createdAt: new Date(c.created_at).toISOString(),
        lastUsedAt: c.last_used_at === null ? null : new Date(c.last_used_at).toISOString(),
        userVerifying: c.user_verifying === 1,
      }));
    },
  );

  app.delete(
    '/api/biometrics/credentials/:id',
    {
      schema: {
        tags: ['biometrics'],
        summary: 'Revoke one of my biometric keys',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: okSchema, ...errors, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const result = await ctx.db
        .updateTable('credentials')
        .set({ revoked_at: ctx.clock.now() })
        .where('id', '=', request.params.id)
        .where('user_id', '=', session.user_id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new AppError('not_found');
      await recordAudit(ctx.db, ctx.clock, {
        action: 'biometric_revoked',
        actorId: session.user_id,
        targetId: request.params.id,
        ip: request.ip,
      });
      return { ok: true as const };
    },
  );
};
