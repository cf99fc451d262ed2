import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../test/helpers.js';

// Attacker suite (security issue, point 2): with a stolen session alone, the mobile number could
// be replaced (change → verify), then the password reset by SMS and the second factor passed by
// SMS: the account taken in 8 requests, no password known. The number is a recovery channel: once
// signed in, it changes only in the profile, with the current password, and the owner's e-mail
// is told.
const OWNER = {
  email: 'proprietaire@example.fr',
  password: 'Kerguelen-Orque-1987',
  phone: '+33611111111',
};
const ATTACKER_NUMBER = '+33622222222';

describe.each(DIALECTS)('a stolen session on %s', (dialect) => {
  let t: TestApp;
  let thief: TestClient;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    await createUser(t, OWNER);
    thief = new TestClient(t.app);
    expect((await signIn(t, thief, OWNER.email, OWNER.password)).statusCode).toBe(200);
  });
  afterEach(() => t.close());

  const ownerPhone = async () =>
    (
      await t.ctx.db
        .selectFrom('users')
        .select(['phone', 'phone_verified_at'])
        .where('email', '=', OWNER.email)
        .executeTakeFirstOrThrow()
    ).phone;

  it('cannot replace the mobile number through the sign-in stage’s routes', async () => {
    for (const url of [
      '/api/verification/mobile-phone/change',
      '/api/verification/mobile-phone/send',
    ]) {
      // A signed-in session is not at that stage: the routes answer as to no session at all.
      const res = await thief.post(url, { phone: '06 22 22 22 22' });
      expect(res.statusCode).toBe(401);
    }
    const verify = await thief.post('/api/verification/mobile-phone/verify', { code: '123456' });
    expect(verify.statusCode).toBe(401);
    expect(await ownerPhone()).toBe(OWNER.phone);
    expect(await messagesTo(t, ATTACKER_NUMBER)).toEqual([]);
  });

  it('cannot replace it in the profile without the current password', async () => {
    const res = await thief.post('/api/profile/phone', {
      phone: '06 22 22 22 22',
      currentPassword: 'A-Guess-0f-The-Password',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await messagesTo(t, ATTACKER_NUMBER)).toEqual([]);
    expect(await ownerPhone()).toBe(OWNER.phone);
  });

  it('so the SMS reset still goes to the owner’s number only', async () => {
    await thief.post('/api/verification/mobile-phone/change', { phone: '06 22 22 22 22' });
    t.clock.advance(2 * 60_000);
    const forgot = await new TestClient(t.app).post('/api/password/forgot', {
      username: OWNER.email,
      channel: 'sms',
    });
    expect(forgot.statusCode).toBe(200);
    expect(await messagesTo(t, ATTACKER_NUMBER)).toEqual([]);
    expect((await messagesTo(t, OWNER.phone)).map((m) => m.template)).toContain(
      'password_reset_code',
    );
  });
});
