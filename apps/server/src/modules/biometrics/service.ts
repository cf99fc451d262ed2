import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type {
  BiometricCredential,
  Brand,
  Language,
  nativeEnrolSchema,
  webauthnRegistrationVerifySchema,
} from '@hygie/domain';
import { BRAND_NAMES } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/service.js';
import { findUserById } from '../users/service.js';
import { queueSecurityNotice } from '../users/notices.js';
import { consumeChallenge, createChallenge } from './challenges.js';
import { isP256PublicKey, verifyNativeSignature } from './native-keys.js';
import type { CredentialKind } from './repository.js';
import {
  activeCredentialsOfUser,
  activeWebauthnKeysOfUser,
  insertCredential,
  revokeCredentialOfUser,
  revokeNativeKey,
  revokeNativeKeysOfUser,
} from './repository.js';
import type { Ceremony } from './webauthn.js';
import {
  challengeBytes,
  parseRegistrationResponse,
  parseTransports,
  relyingPartyOf,
} from './webauthn.js';

/** Who enrols, for the security notice and the audit trail. */
export interface EnrolMeta {
  ip: string | null;
  language: Language;
  brand: Brand;
}

type WebauthnRegistration = z.infer<typeof webauthnRegistrationVerifySchema>;
type NativeEnrolment = z.infer<typeof nativeEnrolSchema>;

interface NewKey {
  kind: CredentialKind;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[] | null;
  deviceName: string;
}

/**
 * Stores a verified key, with the "a key was added" security notice and the audit entry, in one
 * transaction. Anything but a known refusal (a key id already taken …) is an enrolment failure.
 */
async function storeKey(ctx: AppContext, userId: string, key: NewKey, meta: EnrolMeta) {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  const now = ctx.clock.now();
  try {
    await transaction(ctx.db, async (trx) => {
      await insertCredential(trx, {
        id: newId(),
        user_id: userId,
        kind: key.kind,
        credential_id: key.credentialId,
        public_key: key.publicKey,
        counter: key.counter,
        transports: key.transports ? JSON.stringify(key.transports) : null,
        device_name: key.deviceName,
        user_verifying: 1,
        created_at: now,
        last_used_at: null,
        revoked_at: null,
      });
      await queueSecurityNotice(ctx, trx, user, 'biometric_added', meta, {
        device: key.deviceName,
      });
      await recordAudit(trx, ctx.clock, {
        action: 'biometric_enrolled',
        actorId: userId,
        targetId: userId,
        ip: meta.ip,
        details: { kind: key.kind },
      });
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('biometric_enrolment_failed');
  }
}

// ---- WebAuthn (browsers) ----

/** Options to create a passkey: platform authenticator, user verification required. */
export async function passkeyEnrolmentOptions(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name'>,
  brand: Brand,
): Promise<Ceremony> {
  const existing = await activeWebauthnKeysOfUser(ctx.db, user.id);
  const { challengeId, challenge } = await createChallenge(ctx, 'webauthn_register', user.id);
  const options = await generateRegistrationOptions({
    rpName: BRAND_NAMES[brand],
    rpID: relyingPartyOf(ctx).rpID,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email,
    challenge: challengeBytes(challenge),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({
      id: c.credential_id,
      transports: parseTransports(c.transports),
    })),
    authenticatorSelection: {
      authenticatorAttachment: 'platform',
      userVerification: 'required',
      // Discoverable: sign-in never lists an account's keys (no enumeration).
      residentKey: 'required',
    },
  });
  // The options are JSON the browser hands to WebAuthn as they are (the API: a plain object).
  return { challengeId, options: { ...options } };
}

/** Checks the browser's attestation against the challenge and stores the new passkey. */
export async function enrolPasskey(
  ctx: AppContext,
  userId: string,
  input: WebauthnRegistration,
  meta: EnrolMeta,
): Promise<void> {
  const challenge = await consumeChallenge(ctx, input.challengeId, 'webauthn_register', userId);
  const { rpID, origin } = relyingPartyOf(ctx);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      // The body is validated as a JSON object only: a response of another shape fails here.
      response: parseRegistrationResponse(input.response),
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
  await storeKey(
    ctx,
    userId,
    {
      kind: 'webauthn',
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? null,
      deviceName: input.deviceName,
    },
    meta,
  );
}

// ---- Native app bridge (docs/native-bridge.md) ----

/** A challenge the app signs with its new key. */
export function nativeEnrolmentChallenge(ctx: AppContext, userId: string) {
  return createChallenge(ctx, 'native_enrol', userId);
}

/** Stores the app key (P-256 SPKI) once its signature of the challenge checks out. */
export async function enrolNativeKey(
  ctx: AppContext,
  userId: string,
  input: NativeEnrolment,
  meta: EnrolMeta,
): Promise<void> {
  const { challengeId, keyId, publicKey, signature, deviceName } = input;
  const challenge = await consumeChallenge(ctx, challengeId, 'native_enrol', userId);
  if (!isP256PublicKey(publicKey) || !verifyNativeSignature(publicKey, challenge, signature)) {
    throw new AppError('biometric_enrolment_failed');
  }
  await storeKey(
    ctx,
    userId,
    { kind: 'native', credentialId: keyId, publicKey, counter: 0, transports: null, deviceName },
    meta,
  );
}

/** The app reports its key invalidated (new fingerprint enrolled): the key is revoked. */
export async function nativeKeyInvalidated(
  ctx: AppContext,
  userId: string,
  keyId: string,
  ip: string | null,
): Promise<void> {
  // Only the owner's session proves the report: anyone else's would revoke a stranger's key.
  const revoked = await revokeNativeKey(ctx.db, userId, keyId, ctx.clock.now());
  if (!revoked) return;
  await recordAudit(ctx.db, ctx.clock, {
    action: 'biometric_invalidated',
    actorId: userId,
    targetId: revoked.user_id,
    ip,
    details: { credentialId: keyId },
  });
}

// ---- My keys ----

/** The names of a user's keys that still sign in (passkeys and the app's), in the caller's transaction. */
export async function activeKeyNames(db: Db, userId: string): Promise<string[]> {
  return (await activeCredentialsOfUser(db, userId)).map((c) => c.device_name);
}

export async function listMyKeys(ctx: AppContext, userId: string): Promise<BiometricCredential[]> {
  const rows = await activeCredentialsOfUser(ctx.db, userId);
  return rows.map((c) => ({
    id: c.id,
    kind: c.kind,
    deviceName: c.device_name,
    createdAt: new Date(c.created_at).toISOString(),
    lastUsedAt: c.last_used_at === null ? null : new Date(c.last_used_at).toISOString(),
    userVerifying: c.user_verifying === 1,
  }));
}

export async function revokeMyKey(
  ctx: AppContext,
  userId: string,
  id: string,
  ip: string | null,
): Promise<void> {
  if (!(await revokeCredentialOfUser(ctx.db, id, userId, ctx.clock.now()))) {
    throw new AppError('not_found');
  }
  await recordAudit(ctx.db, ctx.clock, {
    action: 'biometric_revoked',
    actorId: userId,
    targetId: userId,
    ip,
    details: { credentialId: id },
  });
}

/** Revokes every native biometric key of a user (recovery: a key enrolled by an intruder goes). */
export function revokeNativeKeys(
  ctx: Pick<AppContext, 'clock'>,
  db: Db,
  userId: string,
): Promise<void> {
  return revokeNativeKeysOfUser(db, userId, ctx.clock.now());
}

/** Retention (maintenance). */
export { deleteExpiredChallenges } from './repository.js';

/** The data export: every key held, revoked ones included, by its metadata. */
export { credentialsOfUser as keysHeldFor } from './repository.js';
