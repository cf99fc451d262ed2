import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { TestApp } from './helpers.js';

// A passkey without a browser: a software authenticator (P-256, ES256) whose assertions the
// portal verifies like a device's (the server's tests of the passkey step-up and sign-in).

/** A passkey held by a software authenticator: its id, COSE public key and private key. */
export interface SoftKey {
  id: string;
  cose: Buffer;
  privateKey: KeyObject;
}

export function softKey(): SoftKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, CBOR-encoded.
  const cose = Buffer.concat([
    Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
    x,
    Buffer.from([0x22, 0x58, 0x20]),
    y,
  ]);
  return { id: randomBytes(16).toString('base64url'), cose, privateKey };
}

/** The authenticator's assertion for these options, at this origin (user verified or not). */
export function assertion(key: SoftKey, challenge: string, origin: string, verified = true) {
  const rpIdHash = createHash('sha256').update(new URL(origin).hostname).digest();
  const flags = verified ? 0x05 : 0x01; // user present (and verified)
  const authenticatorData = Buffer.concat([rpIdHash, Buffer.from([flags, 0, 0, 0, 1])]);
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }),
  );
  const signed = Buffer.concat([
    authenticatorData,
    createHash('sha256').update(clientDataJSON).digest(),
  ]);
  return {
    id: key.id,
    rawId: key.id,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      authenticatorData: authenticatorData.toString('base64url'),
      clientDataJSON: clientDataJSON.toString('base64url'),
      signature: sign('sha256', signed, key.privateKey).toString('base64url'),
    },
  };
}

/** Stores `key` as a passkey of the user, as an enrolment would (user-verifying, in use). */
export async function storePasskey(t: TestApp, userId: string, key: SoftKey): Promise<void> {
  await t.ctx.db
    .insertInto('credentials')
    .values({
      id: `cred-${key.id}`,
      user_id: userId,
      kind: 'webauthn',
      credential_id: key.id,
      public_key: key.cose.toString('base64url'),
      counter: 0,
      transports: JSON.stringify(['internal']),
      device_name: 'Laptop',
      user_verifying: 1,
      created_at: t.clock.now(),
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
}
