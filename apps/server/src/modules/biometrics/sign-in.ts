import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import type { nativeLoginSchema, webauthnAuthenticationVerifySchema } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { AppError } from '../../lib/app-error.js';
import type { LoginResult, SignInAttempt } from '../auth/service.js';
import { signInProven } from '../auth/service.js';
import { consumeChallenge, createChallenge } from './challenges.js';
import { verifyNativeSignature } from './native-keys.js';
import type { CredentialKind, CredentialRow } from './repository.js';
import {
  activeWebauthnKeysOfUser,
  findCredential,
  markCredentialUsed,
  setCredentialCounter,
} from './repository.js';
import type { Ceremony } from './webauthn.js';
import {
  challengeBytes,
  parseAuthenticationResponse,
  parseTransports,
  relyingPartyOf,
} from './webauthn.js';

type PasskeyAssertion = z.infer<typeof webauthnAuthenticationVerifySchema>;
type NativeAssertion = z.infer<typeof nativeLoginSchema>;

/** A key that may sign in: it exists (else the verification fails) and is not revoked. */
async function usableKey(ctx: AppContext, kind: CredentialKind, id: unknown) {
  const credential = typeof id === 'string' ? await findCredential(ctx.db, kind, id) : undefined;
  if (!credential) throw new AppError('biometric_verification_failed');
  if (credential.revoked_at !== null) throw new AppError('biometric_key_invalidated');
  return credential;
}

// ---- WebAuthn (browsers) ----

/**
 * Options to sign in with a passkey: discoverable credentials only, never a list of an account's
 * keys (that list told anyone which names have passkeys, and their ids). The browser offers the
 * passkeys it holds for the portal; the assertion names its key, and the key its account.
 */
export async function passkeySignInOptions(ctx: AppContext): Promise<Ceremony> {
  const { challengeId, challenge } = await createChallenge(ctx, 'webauthn_login', null);
  const options = await generateAuthenticationOptions({
    rpID: relyingPartyOf(ctx).rpID,
    challenge: challengeBytes(challenge),
    userVerification: 'required',
    allowCredentials: [],
  });
  // The options are JSON the browser hands to WebAuthn as they are (the API: a plain object).
  return { challengeId, options: { ...options } };
}

/** Whether the user has a passkey in use (a means of the step-up to a higher level). */
export async function hasWebauthnKey(db: Db, userId: string): Promise<boolean> {
  return (await activeWebauthnKeysOfUser(db, userId)).length > 0;
}

/**
 * Options to raise the signed-in user's session with one of their passkeys (the step-up to a
 * higher level): the challenge is bound to the user, and the browser offers their keys.
 */
export async function passkeyStepUpOptions(ctx: AppContext, userId: string): Promise<Ceremony> {
  const keys = await activeWebauthnKeysOfUser(ctx.db, userId);
  const { challengeId, challenge } = await createChallenge(ctx, 'webauthn_login', userId);
  const options = await generateAuthenticationOptions({
    rpID: relyingPartyOf(ctx).rpID,
    challenge: challengeBytes(challenge),
    userVerification: 'required',
    allowCredentials: keys.map((key) => ({
      id: key.credential_id,
      transports: parseTransports(key.transports),
    })),
  });
  return { challengeId, options: { ...options } };
}

/**
 * Checks an assertion of the options above: a challenge of this user, one of their own keys (a
 * key of another account fails like a wrong one), and the user verified on the device.
 */
export async function verifyPasskeyOfUser(
  ctx: AppContext,
  userId: string,
  input: PasskeyAssertion,
): Promise<void> {
  const challenge = await consumeChallenge(ctx, input.challengeId, 'webauthn_login', userId);
  const credential = await usableKey(ctx, 'webauthn', input.response.id);
  if (credential.user_id !== userId) throw new AppError('biometric_verification_failed');
  const userVerified = await verifyAssertion(ctx, credential, challenge, input);
  if (!userVerified) throw new AppError('biometric_verification_failed');
  if (!(await markCredentialUsed(ctx.db, credential.id, ctx.clock.now()))) {
    throw new AppError('biometric_key_invalidated');
  }
}

/** Verifies a passkey's assertion and stores its counter; whether the key verified its user. */
async function verifyAssertion(
  ctx: AppContext,
  credential: CredentialRow,
  challenge: string,
  input: PasskeyAssertion,
): Promise<boolean> {
  const { rpID, origin } = relyingPartyOf(ctx);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      // The body is validated as a JSON object only: a response of another shape fails here.
      response: parseAuthenticationResponse(input.response),
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: {
        id: credential.credential_id,
        publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
        counter: Number(credential.counter),
        transports: parseTransports(credential.transports),
      },
    });
  } catch {
    throw new AppError('biometric_verification_failed');
  }
  if (!verification.verified) throw new AppError('biometric_verification_failed');
  const { newCounter, userVerified } = verification.authenticationInfo;
  await setCredentialCounter(ctx.db, credential.id, newCounter);
  return userVerified;
}

export async function signInWithPasskey(
  ctx: AppContext,
  input: PasskeyAssertion,
  attempt: SignInAttempt,
): Promise<LoginResult> {
  const challenge = await consumeChallenge(ctx, input.challengeId, 'webauthn_login');
  const credential = await usableKey(ctx, 'webauthn', input.response.id);
  const userVerified = await verifyAssertion(ctx, credential, challenge, input);
  return signInWithCredential(ctx, credential, userVerified, attempt);
}

// ---- Native app bridge (docs/native-bridge.md) ----

/** A sign-in challenge for the app to sign. */
export function nativeSignInChallenge(ctx: AppContext) {
  return createChallenge(ctx, 'native_login', null);
}

export async function signInWithNativeKey(
  ctx: AppContext,
  input: NativeAssertion,
  attempt: SignInAttempt,
): Promise<LoginResult> {
  const challenge = await consumeChallenge(ctx, input.challengeId, 'native_login');
  const credential = await usableKey(ctx, 'native', input.keyId);
  if (!verifyNativeSignature(credential.public_key, challenge, input.signature)) {
    throw new AppError('biometric_verification_failed');
  }
  return signInWithCredential(ctx, credential, true, attempt);
}

/**
 * Signing in with a biometric key counts as the password step. A user-verifying key (biometrics
 * checked on the device — every key enrolled here is, enrolment requires it) also proves the second
 * factor: possession of the device plus the biometric check. The other stages still apply. A key
 * revoked, or an account deleted, since the key was checked signs nothing in.
 */
async function signInWithCredential(
  ctx: AppContext,
  credential: Pick<CredentialRow, 'id' | 'user_id' | 'user_verifying' | 'kind'>,
  userVerified: boolean,
  attempt: SignInAttempt,
): Promise<LoginResult> {
  const verifiedUser = userVerified && credential.user_verifying === 1;
  const result = await signInProven(
    ctx,
    {
      userId: credential.user_id,
      method: 'biometric',
      // A key held by the device (hwk); its user verified by biometrics or PIN (user): two factors.
      proof: {
        amr: verifiedUser ? ['hwk', 'user'] : ['hwk'],
        mfaVerifiedAt: verifiedUser ? ctx.clock.now() : null,
      },
      event: { action: 'login_biometric', details: { kind: credential.kind } },
      use: (trx, now) => markCredentialUsed(trx, credential.id, now),
    },
    attempt,
  );
  if (!result) throw new AppError('biometric_key_invalidated');
  return result;
}
