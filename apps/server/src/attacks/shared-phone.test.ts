import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, createUser, DIALECTS, messagesTo, TestClient } from '../test/helpers.js';

// Attacker suite (security issue, point 16): a mobile number verified on two accounts (a family
// phone). Signing in with it must not pick one of them, and failures typed against the number
// must not keep either owner out.
const PHONE = '+33611223344';
const A = { email: 'parent@example.fr', password: 'Parent-Passw0rd-2026' };
const B = { email: 'enfant@example.fr', password: 'Enfant-Passw0rd-2026' };

describe.each(DIALECTS)('a mobile number shared by two accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await createUser(t, { ...A, phone: PHONE });
    await createUser(t, { ...B, phone: PHONE });
  });
  afterAll(() => t.close());

  const login = (username: string, password: string) =>
    new TestClient(t.app).post('/api/login', { username, password });

  it('asks for another identifier, whichever owner’s password is typed', async () => {
    for (const { password } of [A, B]) {
      const res = await login('06 11 22 33 44', password);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'phone_shared_by_accounts' });
    }
  });

  it('answers a wrong password like any other, without telling the number is shared', async () => {
    const res = await login('06 11 22 33 44', 'Not-Their-Passw0rd');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'bad_credentials' });
  });

  it('never lets failures against the number block either owner', async () => {
    for (let i = 0; i < 8; i += 1) await login('06 11 22 33 44', `Wrong-Passw0rd-${i}`);
    for (const owner of [A, B]) {
      const res = await login(owner.email, owner.password);
      expect(res.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    }
  });

  it('sends no reset code to a number that names no single account', async () => {
    const res = await new TestClient(t.app).post('/api/password/forgot', {
      username: '06 11 22 33 44',
      channel: 'sms',
    });
    expect(res.statusCode).toBe(200);
    expect(await messagesTo(t, PHONE)).toEqual([]);
  });
});
