import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../test/helpers.js';

// Attacker suite (security issue, point 6, current password): with a stolen session, the current
// password asked before a change of e-mail, phone or password could be guessed at full speed (40
// wrong ones at 57 a second). It is now slowed like a sign-in: 5 free tries, then 60 s doubling,
// on a count of its own per account, counted atomically.
const OWNER = {
  email: 'titulaire@example.fr',
  password: 'Kerguelen-Orque-1987',
  phone: '+33633333333',
};
const NEW_PASSWORD = 'Vélo-rouge-sur-la-Loire-7';

describe.each(DIALECTS)('guessing the current password on %s', (dialect) => {
  let t: TestApp;
  let thief: TestClient;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    await createUser(t, OWNER);
    thief = new TestClient(t.app);
    expect((await signIn(t, thief, OWNER.email, OWNER.password)).statusCode).toBe(200);
  });
  afterEach(() => t.close());

  const changePassword = (client: TestClient, currentPassword: string) =>
    client.post('/api/profile/password', {
      currentPassword,
      password: NEW_PASSWORD,
      passwordConfirmation: NEW_PASSWORD,
    });

  it('is slowed after five wrong guesses, even for the right password, until the wait is over', async () => {
    for (let i = 0; i < 5; i += 1) {
      const res = await changePassword(thief, `Guess-Number-${i}-Wrong`);
      expect(res.json()).toMatchObject({ code: 'wrong_current_password' });
    }
    const blocked = await changePassword(thief, OWNER.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      code: 'too_many_attempts',
      data: { retryAfterSeconds: 60 },
    });
    expect(blocked.headers['retry-after']).toBe('60');
    t.clock.advance(60_000);
    expect((await changePassword(thief, OWNER.password)).statusCode).toBe(200);
  });

  it('counts every one of 20 parallel wrong guesses', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => changePassword(thief, `Guess-Number-${i}-Wrong`)),
    );
    const checked = responses.filter((r) => r.statusCode !== 429).length;
    const row = await t.ctx.db
      .selectFrom('throttles')
      .select('failures')
      .where('key', 'like', 'current-password:%')
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(checked);
    // Blocked now, and for longer than the first minute: the count went past five.
    const after = await changePassword(thief, OWNER.password);
    expect(after.statusCode).toBe(429);
  });

  it('leaves the sign-in alone: the owner still signs in elsewhere', async () => {
    for (let i = 0; i < 6; i += 1) await changePassword(thief, `Guess-Number-${i}-Wrong`);
    const owner = new TestClient(t.app);
    const res = await owner.login(OWNER.email, OWNER.password);
    expect(res.json()).toMatchObject({ code: 'two_factor_authentication_required' });
  });
});
