import * as z from 'zod/mini';

// Biometric sign-in (spec §2 "Biometrics", architecture §8): one server model, two carriers —
// WebAuthn passkeys in browsers, and a P-256 key held by the mobile app behind biometrics.
// zod/mini: the login page's biometric sign-in reads these (docs/web.md).

const base64url = z.string().check(z.regex(/^[A-Za-z0-9_-]+$/, 'field_invalid'), z.maxLength(4096));
const deviceName = z.string().check(z.trim(), z.minLength(1, 'field_required'), z.maxLength(100));
const shortId = z.string().check(z.minLength(1), z.maxLength(64));

/** A challenge to sign: single use, expires (challengeId names it). */
export const biometricChallengeSchema = z.object({
  challengeId: z.string(),
  challenge: z.string(),
  expiresAt: z.string(),
});

/** POST /api/biometrics/webauthn/registration/verify — the browser's attestation (SimpleWebAuthn JSON). */
export const webauthnRegistrationVerifySchema = z.object({
  challengeId: shortId,
  deviceName,
  response: z.record(z.string(), z.unknown()),
});
/** POST /api/biometrics/webauthn/authentication/options — an identifier narrows the allowed keys. */
export const webauthnAuthenticationOptionsInputSchema = z.object({
  username: z.optional(z.string().check(z.trim(), z.maxLength(180))),
});
/** POST /api/biometrics/webauthn/authentication/verify. */
export const webauthnAuthenticationVerifySchema = z.object({
  challengeId: shortId,
  response: z.record(z.string(), z.unknown()),
});

/** POST /api/biometrics/native/enrol — the app's new key (SPKI, DER, base64url) and its signature of the challenge. */
export const nativeEnrolSchema = z.object({
  challengeId: shortId,
  keyId: base64url,
  publicKey: base64url,
  signature: base64url,
  deviceName,
});
/** POST /api/biometrics/native/login/challenge. */
export const nativeLoginChallengeInputSchema = z.object({ keyId: base64url });
/** POST /api/biometrics/native/login — the challenge signed by the app's key (ECDSA P-256, SHA-256, IEEE P1363). */
export const nativeLoginSchema = z.object({
  challengeId: shortId,
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
  lastUsedAt: z.nullable(z.string()),
  userVerifying: z.boolean(),
});
export const biometricCredentialListSchema = z.array(biometricCredentialSchema);
export type BiometricCredential = z.infer<typeof biometricCredentialSchema>;
