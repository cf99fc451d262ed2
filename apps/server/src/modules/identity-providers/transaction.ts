import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

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
  expiresAt: z.number(),
});

function keyOf(secret: string): Buffer {
  return createHash('sha256').update(`hygie identity-provider transaction\n${secret}`).digest();
}

/** The cookie value: iv, ciphertext and tag, base64url, dot-separated. */
export function sealTransaction(secret: string, transaction: IdpTransaction): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(transaction), 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** The transaction a cookie holds, or null when it was altered, sealed by another key, or garbled. */
export function openTransaction(secret: string, value: string | undefined): IdpTransaction | null {
  const [iv, body, tag, extra] = (value ?? '').split('.');
  if (!iv || !body || !tag || extra !== undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    const parsed = transactionSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
