import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { IdpIntent, RequiredLevel } from '@hygie/domain';
import { IDP_INTENTS, requiredLevelSchema } from '@hygie/domain';

/**
 * The sign-in a browser started with a provider, until the provider sends it back: kept by the
 * browser in a short-lived HttpOnly cookie, sealed (AES-256-GCM under a key derived from the
 * server secret) so it can be neither read nor forged. docs/identity-providers.md says why a
 * cookie rather than a table.
 */
export interface IdpTransaction {
  provider: string;
  state: string;
  nonce: string;
  /** The PKCE code verifier (its S256 challenge went to the provider). */
  verifier: string;
  /** Where the browser goes once signed in (a path or URL of the portal's origin), if asked. */
  target: string | null;
  /** Started to sign in, or to register (an unknown identity then goes to the registration). */
  intent: IdpIntent;
  /** The level a step-up was started for (where a failure comes back to), if any. */
  level?: RequiredLevel;
  expiresAt: number;
}

/** How long a started sign-in may take at the provider. */
export const TRANSACTION_TTL_MS = 10 * 60_000;

const transactionSchema = z.object({
  provider: z.string(),
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  target: z.string().nullable(),
  // A transaction sealed before intents existed was a sign-in.
  intent: z.enum(IDP_INTENTS).default('sign_in'),
  level: requiredLevelSchema.optional(),
  expiresAt: z.number(),
});

function keyOf(secret: string, purpose: string): Buffer {
  return createHash('sha256').update(`hygie identity-provider ${purpose}\n${secret}`).digest();
}

/** A sealed value: iv, ciphertext and tag, base64url, dot-separated (one key per purpose). */
export function seal(secret: string, purpose: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** What a sealed value holds, or null when it was altered, sealed by another key, or garbled. */
export function unseal<T>(
  secret: string,
  purpose: string,
  schema: z.ZodType<T>,
  value: string | null | undefined,
): T | null {
  const [iv, body, tag, extra] = (value ?? '').split('.');
  if (!iv || !body || !tag || extra !== undefined) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyOf(secret, purpose),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The cookie value of a started sign-in. */
export function sealTransaction(secret: string, transaction: IdpTransaction): string {
  return seal(secret, 'transaction', transaction);
}

/** The transaction a cookie holds, or null when it was altered, sealed by another key, or garbled. */
export function openTransaction(secret: string, value: string | undefined): IdpTransaction | null {
  return unseal(secret, 'transaction', transactionSchema, value);
}
