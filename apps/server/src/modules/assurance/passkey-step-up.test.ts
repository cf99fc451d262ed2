// The step-up to a higher level with a passkey (issue #20, item 4): the options name the user's
// own keys; an assertion with user verification raises the session to substantial; another
// account's key, or one without user verification, changes nothing. A software authenticator
// (P-256, ES256) stands in for the browser's.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';

/** A passkey held by a software authenticator: its id, COSE public key and private key. */
interface SoftKey {
  id: string;
  cose: Buffer;
  privateKey: KeyObject;
}

function softKey(): SoftKey {
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
function assertion(key: SoftKey, challenge: string, origin: string, verified = true) {
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

describe.each(DIALECTS)('the step-up with a passkey on %s', (dialect) => {
  let t: TestApp;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A person signed in with the password and an e-mailed code (low), holding a passkey. */
  async function withPasskey() {
    seq += 1;
    const email = `passkey-level-${seq}@hygie.test`;
    const password = `Passkey-Passw0rd-${seq}`;
    const id = await createUser(t, { email, password, phone: `+336574000${10 + seq}` });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, password)).statusCode).toBe(200);
    const key = softKey();
    await t.ctx.db
      .insertInto('credentials')
      .values({
        id: `cred-${seq}-${dialect}`,
        user_id: id,
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
    return { id, client, key };
  }

  async function options(client: TestClient) {
    const res = await client.post('/api/me/assurance/passkey/options');
    expect(res.statusCode).toBe(200);
    return res.json<{
      challengeId: string;
      options: { challenge: string; allowCredentials: { id: string }[]; userVerification: string };
    }>();
  }

  it('raises a password + e-mail session to substantial with the user’s own passkey', async () => {
    const me = await withPasskey();
    const origin = t.ctx.config.publicUrl.origin;
    expect((await me.client.get('/api/me/assurance?level=substantial')).json()).toMatchObject({
      level: 'low',
      means: [{ kind: 'passkey' }],
      enrolment: [{ kind: 'totp' }],
    });
    const { challengeId, options: opts } = await options(me.client);
    expect(opts.userVerification).toBe('required');
    expect(opts.allowCredentials.map((c) => c.id)).toEqual([me.key.id]);

    // Without user verification: refused, nothing raised.
    const unverified = await me.client.post('/api/me/assurance/passkey', {
      challengeId,
      response: assertion(me.key, opts.challenge, origin, false),
    });
    expect(unverified.statusCode).toBe(401);
    expect(unverified.json()).toMatchObject({ code: 'biometric_verification_failed' });

    const fresh = await options(me.client);
    const raised = await me.client.post('/api/me/assurance/passkey', {
      challengeId: fresh.challengeId,
      response: assertion(me.key, fresh.options.challenge, origin),
    });
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toEqual({ level: 'substantial' });
    expect((await me.client.get('/api/me/assurance')).json()).toMatchObject({
      level: 'substantial',
      amr: ['pwd', 'otp', 'hwk', 'user', 'mfa'],
    });
    // The challenge is used once.
    const replay = await me.client.post('/api/me/assurance/passkey', {
      challengeId: fresh.challengeId,
      response: assertion(me.key, fresh.options.challenge, origin),
    });
    expect(replay.json()).toMatchObject({ code: 'biometric_verification_failed' });
  });

  it('refuses another account’s passkey', async () => {
    const me = await withPasskey();
    const other = await withPasskey();
    const origin = t.ctx.config.publicUrl.origin;
    const { challengeId, options: opts } = await options(me.client);
    const res = await me.client.post('/api/me/assurance/passkey', {
      challengeId,
      response: assertion(other.key, opts.challenge, origin),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'biometric_verification_failed' });
    expect((await me.client.get('/api/me/assurance')).json()).toMatchObject({ level: 'low' });
  });
});
