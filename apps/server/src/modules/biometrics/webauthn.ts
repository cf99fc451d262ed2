import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import type { AppContext } from '../../context.js';

/** A WebAuthn ceremony the browser runs: the challenge to hand back and the options to use. */
export interface Ceremony {
  challengeId: string;
  options: Record<string, unknown>;
}

/** The relying party is the portal itself: its public host and origin (never the request's). */
export function relyingPartyOf(ctx: Pick<AppContext, 'config'>) {
  return { rpID: ctx.config.publicUrl.hostname, origin: ctx.config.publicUrl.origin };
}

/**
 * The stored challenge is base64url: the ceremony signs its bytes, so the browser's clientDataJSON
 * carries this same string (a string handed to SimpleWebAuthn would be UTF-8 encoded again).
 */
export function challengeBytes(challenge: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(challenge, 'base64url'));
}

/** The transports stored with a passkey (a JSON list), as SimpleWebAuthn takes them. */
export function parseTransports(stored: string | null): string[] | undefined {
  if (!stored) return undefined;
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed)
    ? parsed.filter((t): t is string => typeof t === 'string')
    : undefined;
}

// The browser's WebAuthn JSON (SimpleWebAuthn's RegistrationResponseJSON and
// AuthenticationResponseJSON): the request body only checks for an object, these read it as the
// library's type. Members they do not name pass through unchanged.
const credentialJson = {
  id: z.string(),
  rawId: z.string(),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.looseObject({}),
};

const registrationResponseSchema = z.looseObject({
  ...credentialJson,
  response: z.looseObject({
    clientDataJSON: z.string(),
    attestationObject: z.string(),
    authenticatorData: z.string().optional(),
    transports: z.array(z.string()).optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: z.string().optional(),
  }),
}) satisfies z.ZodType<RegistrationResponseJSON>;

const authenticationResponseSchema = z.looseObject({
  ...credentialJson,
  response: z.looseObject({
    clientDataJSON: z.string(),
    authenticatorData: z.string(),
    signature: z.string(),
    userHandle: z.string().optional(),
  }),
}) satisfies z.ZodType<AuthenticationResponseJSON>;

/** The browser's attestation as SimpleWebAuthn takes it; throws when it is not that shape. */
export function parseRegistrationResponse(value: unknown): RegistrationResponseJSON {
  return registrationResponseSchema.parse(value);
}

/** The browser's assertion as SimpleWebAuthn takes it; throws when it is not that shape. */
export function parseAuthenticationResponse(value: unknown): AuthenticationResponseJSON {
  return authenticationResponseSchema.parse(value);
}
