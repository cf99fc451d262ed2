import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.js';

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

function parseKeys(value: string): PrivateJwk[] {
  const parsed: unknown = JSON.parse(value);
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new Error(`${SIGNING_KEYS_SETTING} holds no keys`);
  }
  return keys as PrivateJwk[];
}

/**
 * The provider's signing keys: generated on first start and stored in the database with an
 * insert-if-absent, so nodes starting together all end up with the one set that won. The first
 * key signs; the others are only published (rotation, docs/oidc.md).
 */
export async function loadSigningKeys(db: Db, now: number): Promise<PrivateJwk[]> {
  const existing = await readKeys(db);
  if (existing) return existing;
  await db
    .insertInto('settings')
    .values({
      key: SIGNING_KEYS_SETTING,
      value: JSON.stringify({ keys: [generateSigningKey()] }),
      updated_by: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await readKeys(db);
  if (!stored) throw new Error(`${SIGNING_KEYS_SETTING} could not be stored`);
  return stored;
}

async function readKeys(db: Db): Promise<PrivateJwk[] | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SIGNING_KEYS_SETTING)
    .executeTakeFirst();
  return row ? parseKeys(row.value) : undefined;
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
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SIGNING_KEYS_SETTING)
    .executeTakeFirst();
  if (!row) return loadSigningKeys(db, now);
  const keys = parseKeys(row.value);
  let next: PrivateJwk[];
  if (step === 'stage') next = [...keys, generateSigningKey()];
  else if (step === 'promote') next = [...keys.slice(-1), ...keys.slice(0, -1)];
  else next = keys.slice(0, 1);
  const result = await db
    .updateTable('settings')
    .set({ value: JSON.stringify({ keys: next }), updated_at: now })
    .where('key', '=', SIGNING_KEYS_SETTING)
    .where('value', '=', row.value)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error('the signing keys changed meanwhile');
  return next;
}

/** The public half of the keys, for display (kid and alg only: the provider serves the JWKS). */
export function describeKeys(keys: PrivateJwk[]): { kid: string; alg: string; signing: boolean }[] {
  return keys.map((k, i) => ({ kid: k.kid, alg: k.alg, signing: i === 0 }));
}
