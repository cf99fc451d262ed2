import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appKey } from '../test/app-key.js';
import type { TestApp } from '../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  messagesTo,
  signIn,
  TestClient,
} from '../test/helpers.js';

// Attacker suite (security issue, points 2 and 3): a stolen session could enrol its own biometric
// key or passkey — a way back in that survives the owner's password change. A key that signs in is
// enrolled only within 5 minutes of a proof (the sign-in, the second factor, or the password
// re-entered); and a phone change is told to the old number as well as to the e-mail.
const OWNER = {
  email: 'etape@example.fr',
  password: 'Kerguelen-Orque-1987',
  phone: '+33611111111',
};
const STALE = 6 * 60_000;

describe.each(DIALECTS)('the step-up before a sensitive change on %s', (dialect) => {
  let t: TestApp;
  let session: TestClient;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    await createUser(t, OWNER);
    session = new TestClient(t.app);
    expect((await signIn(t, session, OWNER.email, OWNER.password)).statusCode).toBe(200);
  });
  afterEach(() => t.close());

  const keysOfOwner = async () =>
    (
      await t.ctx.db
        .selectFrom('credentials')
        .innerJoin('users', 'users.id', 'credentials.user_id')
        .select('credentials.id')
        .where('users.email', '=', OWNER.email)
        .execute()
    ).length;

  async function enrolNative(client: TestClient) {
    const key = await appKey();
    const challenge = await client.post('/api/biometrics/native/enrol/challenge');
    if (challenge.statusCode !== 200) return challenge;
    const { challengeId, challenge: text } = challenge.json<{
      challengeId: string;
      challenge: string;
    }>();
    return client.post('/api/biometrics/native/enrol', {
      challengeId,
      keyId: key.keyId,
      publicKey: key.spki,
      signature: await key.sign(text),
      deviceName: 'Téléphone du voleur',
    });
  }

  it('enrols a key right after the sign-in, with nothing more to prove', async () => {
    expect((await enrolNative(session)).json()).toEqual({ ok: true });
    expect(await keysOfOwner()).toBe(1);
  });

  it('refuses a stale session’s enrolment of an app key or a passkey until the password is re-entered', async () => {
    t.clock.advance(STALE);
    const native = await enrolNative(session);
    expect(native.statusCode).toBe(403);
    expect(native.json()).toMatchObject({ code: 'reauthentication_required' });
    const passkey = await session.post('/api/biometrics/webauthn/registration/options');
    expect(passkey.statusCode).toBe(403);
    expect(passkey.json()).toMatchObject({ code: 'reauthentication_required' });

    const guess = await session.post('/api/session/reauthenticate', {
      password: 'Une-Devinette-1',
    });
    expect(guess.json()).toMatchObject({ code: 'wrong_current_password' });
    expect((await enrolNative(session)).statusCode).toBe(403);
    expect(await keysOfOwner()).toBe(0);

    const proof = await session.post('/api/session/reauthenticate', { password: OWNER.password });
    expect(proof.json()).toEqual({ ok: true });
    expect((await enrolNative(session)).json()).toEqual({ ok: true });
    expect((await session.post('/api/biometrics/webauthn/registration/options')).statusCode).toBe(
      200,
    );
    // The proof lasts 5 minutes, not the session.
    t.clock.advance(STALE);
    expect((await enrolNative(session)).statusCode).toBe(403);
    expect(await keysOfOwner()).toBe(1);
  });

  it('refuses the enrolment of a challenge fetched in time but used once the proof went stale', async () => {
    const challenge = (await session.post('/api/biometrics/native/enrol/challenge')).json<{
      challengeId: string;
      challenge: string;
    }>();
    t.clock.advance(STALE);
    const key = await appKey();
    const res = await session.post('/api/biometrics/native/enrol', {
      challengeId: challenge.challengeId,
      keyId: key.keyId,
      publicKey: key.spki,
      signature: await key.sign(challenge.challenge),
      deviceName: 'Téléphone du voleur',
    });
    expect(res.json()).toMatchObject({ code: 'reauthentication_required' });
    expect(await keysOfOwner()).toBe(0);
  });

  it('slows the guesses of the password re-entered, on the count of every current-password check', async () => {
    t.clock.advance(STALE);
    const answers = [];
    for (let i = 0; i < 7; i++) {
      answers.push(
        (await session.post('/api/session/reauthenticate', { password: `Devinette-${i}-Xy` }))
          .statusCode,
      );
    }
    expect(answers.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(answers.slice(5)).toContain(429);
    // Blocked, even the right password waits: no guessing at full speed.
    const right = await session.post('/api/session/reauthenticate', { password: OWNER.password });
    expect(right.statusCode).toBe(429);
  });

  it('needs a session: no step-up for a stranger', async () => {
    const res = await new TestClient(t.app).post('/api/session/reauthenticate', {
      password: OWNER.password,
    });
    expect(res.statusCode).toBe(401);
  });

  it('tells the old number, by SMS with the lock link, that the phone was changed', async () => {
    await session.post('/api/profile/phone', {
      phone: '06 22 22 22 22',
      currentPassword: OWNER.password,
    });
    const code = await lastCode(t, '+33622222222');
    expect((await session.post('/api/profile/phone/verify', { code })).statusCode).toBe(200);
    const [notice] = await messagesTo(t, OWNER.phone);
    expect(notice).toMatchObject({ channel: 'sms', template: 'phone_changed' });
    expect(notice?.params.lockUrl).toContain('/security/lock-account');
    expect((await messagesTo(t, OWNER.email)).map((m) => m.template)).toContain('phone_changed');
  });
});
