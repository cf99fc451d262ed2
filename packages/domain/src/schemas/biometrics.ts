import { z } from 'zod';

// Biometric sign-in (spec §2 "Biometrics", architecture §8): one server model, two carriers —
// WebAuthn passkeys in browsers, and a P-256 key held by the mobile app behind biometrics.

const base64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'field_invalid')
  .max(4096);
const deviceName = z.string().trim().min(1, 'field_required').max(100);

/** A challenge to sign: single use, expires (challengeId names it). */
export const biometricChallengeSchema = z.object({
  challengeId: z.string(),
  challenge: z.string(),
  expiresAt: z.string(),
});

/** POST /api/biometrics/webauthn/registration/verify — the browser's attestation (SimpleWebAuthn JSON). */
export const webauthnRegistrationVerifySchema = z.object({
  challengeId: z.string().min(1).max(64),
  deviceName,
  response: z.record(z.string(), z.unknown()),
});
/** POST /api/biometrics/webauthn/authentication/options — an identifier narrows the allowed keys. */
export const webauthnAuthenticationOptionsInputSchema = z.object({
  username: z.string().trim().max(180).optional(),
});
/** POST /api/biometrics/webauthn/authentication/verify. */
export const webauthnAuthenticationVerifySchema = z.object({
  challengeId: z.string().min(1).max(64),
  response: z.record(z.string(), z.unknown()),
});

/** POST /api/biometrics/native/enrol — the app's new key (SPKI, DER, base64url) and its signature of the challenge. */
export const nativeEnrolSchema = z.object({
  challengeId: z.string().min(1).max(64),
  keyId: base64url,
  publicKey: base64url,
  signature: base64url,
  deviceName,
});
/** POST /api/biometrics/native/login/challenge. */
export const nativeLoginChallengeInputSchema = z.object({ keyId: base64url });
/** POST /api/biometrics/native/login — the challenge signed by the app's key (ECDSA P-256, SHA-256, IEEE P1363). */
export const nativeLoginSchema = z.object({
  challengeId: z.string().min(1).max(64),
  keyId: base64url,
  signature: base64url,
});
/** POST /api/biometrics/native/invalidated — the app says the key is gone (new fingerprint enrolled). */
export const nativeInvalidatedSchema = z.object({ keyId: base64url });

/** GET /api/biometrics/credentials. */
export const biometricCredentialSchema = z.object({
  id: z.string(),
  kind: z.enum(['webauthn', 'native']),
  deviceName: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  userVerifying: z.boolean(),
});
export const biometricCredentialListSchema = z.array(biometricCredentialSchema);
export type BiometricCredential = z.infer<typeof biometricCredentialSchema>;
