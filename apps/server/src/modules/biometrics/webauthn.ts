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
