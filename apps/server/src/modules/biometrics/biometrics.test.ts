import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { appKey } from '../../test/app-key.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';

describe.each(DIALECTS)('biometric sign-in on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function enrolled(email: string, phone: string) {
    await createUser(t, { email, password: 'Bio-Passw0rd-1', phone });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, 'Bio-Passw0rd-1')).statusCode).toBe(200);
    const key = await appKey();
    const { challengeId, challenge } = (
      await client.post('/api/biometrics/native/enrol/challenge')
    ).json<{ challengeId: string; challenge: string }>();
    expect(Buffer.from(challenge, 'base64url').length).toBeGreaterThanOrEqual(8);
    const res = await client.post('/api/biometrics/native/enrol', {
      challengeId,
      keyId: key.keyId,
      publicKey: key.spki,
      signature: await key.sign(challenge),
      deviceName: 'Pixel 9',
    });
    expect(res.json()).toEqual({ ok: true });
    return { client, key };
  }

  async function nativeLogin(
    client: TestClient,
    key: Awaited<ReturnType<typeof appKey>>,
    tamper?: (c: string) => string,
  ) {
    const { challengeId, challenge } = (
      await client.post('/api/biometrics/native/login/challenge', { keyId: key.keyId })
    ).json<{ challengeId: string; challenge: string }>();
    const signature = await key.sign(tamper ? tamper(challenge) : challenge);
    return {
      res: await client.post('/api/biometrics/native/login', {
        challengeId,
        keyId: key.keyId,
        signature,
      }),
      challengeId,
      signature,
    };
  }

  it('enrols an app key (only with a complete session) and tells the user by e-mail', async () => {
    const anonymous = await new TestClient(t.app).post('/api/biometrics/native/enrol/challenge');
    expect(anonymous.statusCode).toBe(401);
    await enrolled('bio@hygie.test', '+33657000001');
    expect((await messagesTo(t, 'bio@hygie.test'))[0]).toMatchObject({
      template: 'biometric_added',
      params: { device: 'Pixel 9' },
    });
  });

  it('signs in with the app key: the second factor is satisfied by the biometric key', async () => {
    const { key } = await enrolled('bio-login@hygie.test', '+33657000002');
    const fresh = new TestClient(t.app);
    const { res } = await nativeLogin(fresh, key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'bio-login@hygie.test' });
    expect((await fresh.get('/api/me')).statusCode).toBe(200);
  });

  it('refuses a wrong signature, a replayed challenge and an expired challenge', async () => {
    const { key } = await enrolled('bio-refuse@hygie.test', '+33657000003');
    const wrong = await nativeLogin(new TestClient(t.app), key, (c) => `${c}x`);
    expect(wrong.res.json()).toMatchObject({ code: 'biometric_verification_failed' });

    const ok = await nativeLogin(new TestClient(t.app), key);
    expect(ok.res.statusCode).toBe(200);
    const replay = await new TestClient(t.app).post('/api/biometrics/native/login', {
      challengeId: ok.challengeId,
      keyId: key.keyId,
      signature: ok.signature,
    });
    expect(replay.json()).toMatchObject({ code: 'biometric_verification_failed' });

    const client = new TestClient(t.app);
    const { challengeId, challenge } = (
      await client.post('/api/biometrics/native/login/challenge', { keyId: key.keyId })
    ).json<{ challengeId: string; challenge: string }>();
    t.clock.advance(5 * 60_000 + 1);
    const late = await client.post('/api/biometrics/native/login', {
      challengeId,
      keyId: key.keyId,
      signature: await key.sign(challenge),
    });
    expect(late.json()).toMatchObject({ code: 'biometric_verification_failed' });
  });

  it('refuses an enrolment whose signature does not match the key, or a key that is not P-256', async () => {
    await createUser(t, {
      email: 'bio-bad@hygie.test',
      password: 'Bio-Passw0rd-1',
      phone: '+33657000004',
    });
    const client = new TestClient(t.app);
    await signIn(t, client, 'bio-bad@hygie.test', 'Bio-Passw0rd-1');
    const key = await appKey();
    const other = await appKey();
    const c1 = (await client.post('/api/biometrics/native/enrol/challenge')).json<{
      challengeId: string;
      challenge: string;
    }>();
    const mismatch = await client.post('/api/biometrics/native/enrol', {
      challengeId: c1.challengeId,
      keyId: key.keyId,
      publicKey: key.spki,
      signature: await other.sign(c1.challenge),
      deviceName: 'x',
    });
    expect(mismatch.json()).toMatchObject({ code: 'biometric_enrolment_failed' });
    const c2 = (await client.post('/api/biometrics/native/enrol/challenge')).json<{
      challengeId: string;
      challenge: string;
    }>();
    const garbage = await client.post('/api/biometrics/native/enrol', {
      challengeId: c2.challengeId,
      keyId: key.keyId,
      publicKey: 'AAAA',
      signature: 'AAAA',
      deviceName: 'x',
    });
    expect(garbage.json()).toMatchObject({ code: 'biometric_enrolment_failed' });
  });

  it('revokes a key its signed-in owner reports invalidated; signing in with it then asks to enrol again', async () => {
    const { key, client } = await enrolled('bio-invalid@hygie.test', '+33657000005');
    // Without the owner's session, a report revokes nothing (security issue, point 3).
    const anonymous = await new TestClient(t.app).post('/api/biometrics/native/invalidated', {
      keyId: key.keyId,
    });
    expect(anonymous.statusCode).toBe(401);
    const { client: stranger } = await enrolled('bio-stranger@hygie.test', '+33657000015');
    await stranger.post('/api/biometrics/native/invalidated', { keyId: key.keyId });
    expect((await nativeLogin(new TestClient(t.app), key)).res.statusCode).toBe(200);

    expect(
      (await client.post('/api/biometrics/native/invalidated', { keyId: key.keyId })).json(),
    ).toEqual({ ok: true });
    const { res } = await nativeLogin(new TestClient(t.app), key);
    expect(res.json()).toMatchObject({ code: 'biometric_key_invalidated' });
  });

  it('lists my keys and lets me revoke only my own', async () => {
    const { client } = await enrolled('bio-list@hygie.test', '+33657000006');
    const { client: other } = await enrolled('bio-list2@hygie.test', '+33657000007');
    const mine = (await client.get('/api/biometrics/credentials')).json<
      {
        id: string;
        kind: string;
        deviceName: string;
      }[]
    >();
    expect(mine).toEqual([
      expect.objectContaining({ kind: 'native', deviceName: 'Pixel 9', userVerifying: true }),
    ]);
    const theirs = (await other.get('/api/biometrics/credentials')).json<{ id: string }[]>();
    expect(
      (
        await client.request({
          method: 'DELETE',
          url: `/api/biometrics/credentials/${theirs[0]?.id ?? ''}`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await client.request({
          method: 'DELETE',
          url: `/api/biometrics/credentials/${mine[0]?.id ?? ''}`,
        })
      ).json(),
    ).toEqual({ ok: true });
    expect((await client.get('/api/biometrics/credentials')).json()).toEqual([]);
  });

  it('offers passkey options with user verification required on a platform authenticator', async () => {
    await createUser(t, {
      email: 'passkey@hygie.test',
      password: 'Bio-Passw0rd-1',
      phone: '+33657000008',
    });
    const client = new TestClient(t.app);
    await signIn(t, client, 'passkey@hygie.test', 'Bio-Passw0rd-1');
    const reg = (await client.post('/api/biometrics/webauthn/registration/options')).json<{
      challengeId: string;
      options: {
        rp: { id: string };
        authenticatorSelection: Record<string, string>;
        challenge: string;
      };
    }>();
    expect(reg.options.rp.id).toBe('localhost');
    // The browser signs clientDataJSON.challenge, which must be the stored challenge itself
    // (a regression: passing the base64url string to SimpleWebAuthn encoded it a second time).
    const stored = await t.ctx.db
      .selectFrom('biometric_challenges')
      .select('challenge')
      .where('id', '=', reg.challengeId)
      .executeTakeFirstOrThrow();
    expect(reg.options.challenge).toBe(stored.challenge);
    expect(reg.options.authenticatorSelection).toMatchObject({
      userVerification: 'required',
      authenticatorAttachment: 'platform',
    });
    const forged = await client.post('/api/biometrics/webauthn/registration/verify', {
      challengeId: reg.challengeId,
      deviceName: 'x',
      response: { id: 'abc', type: 'public-key' },
    });
    expect(forged.json()).toMatchObject({ code: 'biometric_enrolment_failed' });
    const replay = await client.post('/api/biometrics/webauthn/registration/verify', {
      challengeId: reg.challengeId,
      deviceName: 'x',
      response: {},
    });
    expect(replay.json()).toMatchObject({ code: 'biometric_verification_failed' });
    const auth = (
      await new TestClient(t.app).post('/api/biometrics/webauthn/authentication/options', {
        username: 'passkey@hygie.test',
      })
    ).json<{ options: { userVerification: string; allowCredentials: unknown[] } }>();
    expect(auth.options).toMatchObject({ userVerification: 'required', allowCredentials: [] });
    const unknownKey = await new TestClient(t.app).post(
      '/api/biometrics/webauthn/authentication/verify',
      { challengeId: 'nope', response: { id: 'x' } },
    );
    expect(unknownKey.json()).toMatchObject({ code: 'biometric_verification_failed' });
  });
});
