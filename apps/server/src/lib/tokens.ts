import type { KeyObject } from 'node:crypto';
import { createHmac, createSecretKey, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random token, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 of a high-entropy token, hex: what the database keeps instead of the token. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The most secrets kept imported (a process has its server secret and few others). */
const MAX_HMAC_KEYS = 16;
const hmacKeys = new Map<string, KeyObject>();

/**
 * `secret` imported as a key, once: given as text, each HMAC imports it again, which costs about
 * seven times the HMAC of a short value (10 µs against 1.5 on the 2-core machine) — and every
 * unsafe request checks an anti-forgery token, every sign-in issues one.
 */
export function hmacKeyOf(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size >= MAX_HMAC_KEYS) hmacKeys.clear();
    key = createSecretKey(secret, 'utf8');
    hmacKeys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA-256 keyed by the UTF-8 bytes of `secret`, base64url. */
export function hmac(secret: string, value: string): string {
  return createHmac('sha256', hmacKeyOf(secret)).update(value).digest('base64url');
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
