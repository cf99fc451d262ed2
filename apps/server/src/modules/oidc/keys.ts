import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { findSettingValue, insertSettingOnce, swapSettingValue } from '../settings/service.js';

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
 * One step of a key rotation (docs/oidc.md), applied with a compare-and-swap so two operators or
 * nodes cannot interleave: `stage` appends a new key (published, not yet signing), `promote` moves
 * the newest key first (it signs), `retire` drops every key but the first. Nodes load keys at
 * start: restart them (rolling) after each step.
 */
export async function rotateSigningKeys(
  db: Db,
  step: 'stage' | 'promote' | 'retire',
  now: number,
): Promise<PrivateJwk[]> {
  const current = await findSettingValue(db, SIGNING_KEYS_SETTING);
  if (current === undefined) return loadSigningKeys(db, now);
  const keys = parseKeys(current);
  let next: PrivateJwk[];
  if (step === 'stage') next = [...keys, generateSigningKey()];
  else if (step === 'promote') next = [...keys.slice(-1), ...keys.slice(0, -1)];
  else next = keys.slice(0, 1);
  if (
    !(await swapSettingValue(
      db,
      SIGNING_KEYS_SETTING,
      current,
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
