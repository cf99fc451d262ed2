import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random token, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 of a high-entropy token, hex: what the database keeps instead of the token. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** HMAC-SHA-256, base64url. */
export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
