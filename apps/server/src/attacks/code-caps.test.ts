import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  messagesTo,
  TestClient,
} from '../test/helpers.js';

// Attacker suite (security issue, point 7): the hourly cap on codes counted every code sent to a
// destination, whoever asked. Five other accounts aiming their phone verification at a victim's
// number, or a few anonymous forgot-password requests, then blocked the victim's own second
// factor for an hour. Caps are per account and purpose; the per-destination cap (against SMS
// pumping) counts only codes to a number nobody has proven, and never touches the owner's codes.
const VICTIM = { email: 'victime@example.fr', password: 'Kerguelen-Orque-1987' };
const NUMBER = '+33612345678';
const MINUTE = 60_000;

describe.each(DIALECTS)('codes others ask for on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    await createUser(t, { ...VICTIM, phone: NUMBER });
  });
  afterEach(() => t.close());

  const smsCodesTo = async (template: string) =>
    (await messagesTo(t, NUMBER)).filter((m) => m.template === template).length;

  /** The victim signs in and asks for the second factor by SMS. */
  async function victimSecondFactorBySms() {
    const victim = new TestClient(t.app);
    const login = await victim.login(VICTIM.email, VICTIM.password);
    expect(login.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    return victim.post('/api/mfa/send', { provider: 'sms' });
  }

  /** `count` signed-in strangers each set the victim's number as their own phone to verify. */
  async function strangersAimAtTheNumber(count: number) {
    const strangers: TestClient[] = [];
    for (let i = 0; i < count; i += 1) {
      const email = `stranger${i}@example.fr`;
      await createUser(t, { email, password: 'Stranger-Passw0rd-9', phone: null });
      const stranger = new TestClient(t.app);
      // Signed in (without moving the clock) up to the stage asking a patient for a mobile number.
      await stranger.login(email, 'Stranger-Passw0rd-9');
      await stranger.post('/api/mfa/send', { provider: 'email' });
      const signedIn = await stranger.post('/api/mfa/verify', {
        provider: 'email',
        code: await lastCode(t, email),
        trustDevice: false,
      });
      expect(signedIn.json()).toMatchObject({ code: 'mobile_phone_not_verified' });
      strangers.push(stranger);
    }
    const answers: number[] = [];
    for (const stranger of strangers) {
      const res = await stranger.post('/api/verification/mobile-phone/change', {
        phone: '06 12 34 56 78',
      });
      answers.push(res.statusCode);
    }
    return answers;
  }

  it('five strangers verifying the victim’s number leave the victim’s SMS second factor alone', async () => {
    expect(await strangersAimAtTheNumber(5)).toEqual([200, 200, 200, 200, 200]);
    const res = await victimSecondFactorBySms();
    expect(res.statusCode).toBe(200);
    expect(await smsCodesTo('mfa_code')).toBe(1);
  });

  it('the per-destination cap still stops the sixth stranger pumping codes to one number', async () => {
    const answers = await strangersAimAtTheNumber(6);
    expect(answers.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5]).toBe(429);
    expect(await smsCodesTo('verification_code')).toBe(5);
  });

  it('anonymous forgot-password requests leave the victim’s SMS second factor alone', async () => {
    for (let i = 0; i < 5; i += 1) {
      const res = await new TestClient(t.app).post('/api/password/forgot', {
        username: VICTIM.email,
        channel: 'sms',
      });
      expect(res.statusCode).toBe(200);
      t.clock.advance(MINUTE + 1000);
    }
    expect(await smsCodesTo('password_reset_code')).toBe(5);
    const res = await victimSecondFactorBySms();
    expect(res.statusCode).toBe(200);
    expect(await smsCodesTo('mfa_code')).toBe(1);
  });

  it('caps each account and purpose at five codes an hour', async () => {
    const victim = new TestClient(t.app);
    await victim.login(VICTIM.email, VICTIM.password);
    const answers: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      answers.push((await victim.post('/api/mfa/send', { provider: 'sms' })).statusCode);
      t.clock.advance(MINUTE + 1000);
    }
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    // The e-mail second factor is another purpose: the SMS cap does not touch it.
    expect((await victim.post('/api/mfa/send', { provider: 'email' })).statusCode).toBe(200);
  });
});
