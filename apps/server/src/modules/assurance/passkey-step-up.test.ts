// The step-up to a higher level with a passkey (issue #20, item 4): the options name the user's
// own keys; an assertion with user verification raises the session to substantial; another
// account's key, or one without user verification, changes nothing. A software authenticator
// (P-256, ES256, test/soft-passkey.ts) stands in for the browser's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { assertion, softKey, storePasskey } from '../../test/soft-passkey.js';

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
    await storePasskey(t, id, key);
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
