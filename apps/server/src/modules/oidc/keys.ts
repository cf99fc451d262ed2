import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { retryLater } from '../../lib/app-error.js';
import {
  findSettingStamp,
  findSettingValue,
  insertSettingOnce,
  swapSettingValue,
} from '../settings/service.js';

/** How long platforms may cache the key set (the JWKS answer's Cache-Control). */
export const JWKS_CACHE_SECONDS = 600;
/** How long an ID token lives (the provider's ttl.IdToken). */
export const ID_TOKEN_TTL_SECONDS = 3600;

/** Where the signing keys live: a setting no admin screen shows (like the server secret). */
export const SIGNING_KEYS_SETTING = 'internal.oidc_jwks';

export interface PrivateJwk {
  kty: string;
  kid: string;
  alg: string;
  use: 'sig';
  [member: string]: unknown;
}

/** A fresh RS256 signing key (RSA 2048), as a private JWK with a random key id. */
export function generateSigningKey(): PrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kty: 'RSA', kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

const keySetSchema = z.object({
  keys: z.array(
    z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.literal('sig') }),
  ),
});

function parseKeys(value: string): PrivateJwk[] {
  const parsed = keySetSchema.safeParse(JSON.parse(value));
  if (!parsed.success || parsed.data.keys.length === 0) {
    throw new Error(`${SIGNING_KEYS_SETTING} holds no valid keys`);
  }
  return parsed.data.keys;
}

/**
 * The provider's signing keys: generated on first start and stored in the database with an
 * insert-if-absent, so nodes starting together all end up with the one set that won. The first
 * key signs; the others are only published (rotation, docs/oidc.md).
 */
export async function loadSigningKeys(db: Db, now: number): Promise<PrivateJwk[]> {
  const existing = await readKeys(db);
  if (existing) return existing;
  const fresh = JSON.stringify({ keys: [generateSigningKey()] });
  const stored = await insertSettingOnce(db, {
    key: SIGNING_KEYS_SETTING,
    value: fresh,
    updated_by: null,
    updated_at: now,
  });
  return parseKeys(stored);
}

async function readKeys(db: Db): Promise<PrivateJwk[] | undefined> {
  const value = await findSettingValue(db, SIGNING_KEYS_SETTING);
  return value === undefined ? undefined : parseKeys(value);
}

/**
 * How long each step of a rotation waits for the previous one: a staged key is published for
 * longer than platforms cache the key set before it signs, and a retired key was not signing for
 * longer than an ID token lives (plus that cache), so no platform ever meets a token it cannot
 * verify.
 */
export const ROTATION_DELAYS_MS = {
  promote: 2 * JWKS_CACHE_SECONDS * 1000,
  retire: (ID_TOKEN_TTL_SECONDS + 2 * JWKS_CACHE_SECONDS) * 1000,
} as const;

/**
 * One step of a key rotation (docs/oidc.md), applied with a compare-and-swap so two operators or
 * nodes cannot interleave: `stage` appends a new key (published, not yet signing), `promote` moves
 * the newest key first (it signs), `retire` drops every key but the first. A step that comes too
 * soon after the previous one is refused (wait_before_retry, with the seconds left). Nodes load
 * keys at start: restart them (rolling) after each step.
 */
export async function rotateSigningKeys(
  db: Db,
  step: 'stage' | 'promote' | 'retire',
  now: number,
): Promise<PrivateJwk[]> {
  const stored = await findSettingStamp(db, SIGNING_KEYS_SETTING);
  if (stored === undefined) {
    // No node has started yet: the first key is made (as at a start), then the step applies.
    await loadSigningKeys(db, now);
    return rotateSigningKeys(db, step, now);
  }
  const keys = parseKeys(stored.value);
  let next: PrivateJwk[];
  if (step === 'stage') {
    next = [...keys, generateSigningKey()];
  } else {
    // Nothing to promote or retire with a single key: the step changes nothing.
    if (keys.length < 2) return keys;
    const waitMs = stored.updated_at + ROTATION_DELAYS_MS[step] - now;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw retryLater('wait_before_retry', seconds);
    }
    next = step === 'promote' ? [...keys.slice(-1), ...keys.slice(0, -1)] : keys.slice(0, 1);
  }
  if (
    !(await swapSettingValue(
      db,
      SIGNING_KEYS_SETTING,
      stored.value,
      JSON.stringify({ keys: next }),
      now,
    ))
  ) {
    throw new Error('the signing keys changed meanwhile');
  }
  return next;
}

/** The public half of the keys, for display (kid and alg only: the provider serves the JWKS). */
export function describeKeys(keys: PrivateJwk[]): { kid: string; alg: string; signing: boolean }[] {
  return keys.map((k, i) => ({ kid: k.kid, alg: k.alg, signing: i === 0 }));
}
