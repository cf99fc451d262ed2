import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizePassword } from '@hygie/domain';
import type { TestApp } from '../../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { createUser } from '../users/service.js';

async function addUser(
  t: TestApp,
  fields: {
    email: string;
    password: string;
    status?: 'active' | 'locked' | 'pending_validation';
    phone?: string;
  },
) {
  await createUser(t.ctx, t.ctx.db, {
    email: fields.email,
    emailVerified: true,
    phone: fields.phone ?? null,
    phoneVerified: true,
    passwordHash: await t.ctx.passwords.hash(normalizePassword(fields.password)),
    profile: 'patient',
    status: fields.status ?? 'active',
    firstName: 'Jeanne',
    lastName: 'Martin',
    language: 'fr',
    cguVersion: '2026-01',
  });
}

describe.each(DIALECTS)('sign-in and sessions on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await addUser(t, { email: 'locked@hygie.test', password: 'Locked-Passw0rd', status: 'locked' });
    await addUser(t, {
      email: 'pending@hygie.test',
      password: 'Pending-Passw0rd',
      status: 'pending_validation',
    });
    await addUser(t, {
      email: 'patient@hygie.test',
      password: 'Patient-Passw0rd',
      phone: '+33612345678',
    });
  });
  afterAll(() => t.close());

  it('creates the admin from ADMIN_EMAIL on first start, once', async () => {
    const admins = await t.ctx.db
      .selectFrom('users')
      .select(['email', 'roles'])
      .where('email', '=', ADMIN.email)
      .execute();
    expect(admins).toEqual([{ email: ADMIN.email, roles: '["admin"]' }]);
  });

  it('answers 401 not_logged_in to /api/me without a session', async () => {
    const res = await new TestClient(t.app).get('/api/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'not_logged_in' });
  });

  it('signs the admin in, then /api/me returns the user with the admin role', async () => {
    const client = new TestClient(t.app);
    const login = await signIn(t, client);
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ type: 'person', email: ADMIN.email, roles: ['admin'] });
    expect(client.cookies.has('hygie_session')).toBe(true);
    const me = await client.get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: ADMIN.email, emailVerified: true, status: 'active' });
  });

  it('stores only the hash of the session token', async () => {
    const client = new TestClient(t.app);
    await signIn(t, client);
    const token = client.cookies.get('hygie_session');
    expect(token).toBeDefined();
    const rows = await t.ctx.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('signs in with the mobile phone number in national or international form', async () => {
    for (const username of ['06 12 34 56 78', '+33612345678']) {
      const res = await signIn(t, new TestClient(t.app), username, 'Patient-Passw0rd');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: 'patient@hygie.test', phone: '+33612345678' });
    }
  });

  it('compares e-mails case-insensitively', async () => {
    const res = await new TestClient(t.app).login('  ADMIN@Hygie.TEST ', ADMIN.password);
    expect(res.json()).toMatchObject({ code: 'two_factor_authentication_required' });
  });

  it('gives the same answer to a wrong password and an unknown account', async () => {
    const wrong = await new TestClient(t.app).login(ADMIN.email, 'Wrong-Passw0rd');
    const unknown = await new TestClient(t.app).login('nobody@hygie.test', 'Wrong-Passw0rd');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({
      code: 'bad_credentials',
      message: 'Identifiants incorrects, vérifiez votre e-mail et votre mot de passe',
    });
  });

  it('does not truncate passwords: the first 72 characters of a 73-character one do not sign in', async () => {
    const long = `Aa1${'x'.repeat(70)}`;
    await addUser(t, { email: 'long@hygie.test', password: long });
    const full = await new TestClient(t.app).login('long@hygie.test', long);
    expect(full.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    const cut = await new TestClient(t.app).login('long@hygie.test', long.slice(0, 72));
    expect(cut.json()).toMatchObject({ code: 'bad_credentials' });
  });

  it('refuses a locked account with the contact e-mail, in the requested language', async () => {
    const client = new TestClient(t.app);
    const res = await client.post('/api/login?l=en', {
      username: 'locked@hygie.test',
      password: 'Locked-Passw0rd',
    });
    expect(res.statusCode).toBe(423);
    expect(res.json()).toEqual({
      code: 'account_locked',
      message: 'Account access has been locked, contact support@hygie.local',
      data: { contactEmail: 'support@hygie.local' },
    });
    expect(client.cookies.has('hygie_session')).toBe(false);
  });

  it('refuses an account pending validation', async () => {
    const res = await new TestClient(t.app).login('pending@hygie.test', 'Pending-Passw0rd');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'account_pending_validation' });
  });

  it('refuses a login without the anti-forgery header, or with a forged one', async () => {
    const client = new TestClient(t.app);
    const missing = await client.request({
      method: 'POST',
      url: '/api/login',
      payload: { username: ADMIN.email, password: ADMIN.password },
      xsrf: false,
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ code: 'csrf_token_invalid' });
    // A token the server did not sign is refused even when cookie and header agree.
    client.cookies.set('XSRF-TOKEN', 'forged.token');
    const forged = await client.login();
    expect(forged.statusCode).toBe(403);
  });

  it('binds the anti-forgery token to the session: another session’s token is refused', async () => {
    const a = new TestClient(t.app);
    const b = new TestClient(t.app);
    await signIn(t, a);
    await signIn(t, b);
    a.cookies.set('XSRF-TOKEN', b.cookies.get('XSRF-TOKEN') ?? '');
    const res = await a.post('/api/session/extend');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf_token_invalid' });
  });

  it('rotates the session at login: the previous token stops working', async () => {
    const client = new TestClient(t.app);
    await client.login();
    const first = client.cookies.get('hygie_session');
    await signIn(t, client);
    const second = client.cookies.get('hygie_session');
    expect(second).not.toBe(first);
    const replay = new TestClient(t.app);
    replay.cookies.set('hygie_session', first ?? '');
    expect((await replay.get('/api/me')).statusCode).toBe(401);
  });

  it('logs out with a browser redirect and invalidates the session server-side', async () => {
    const client = new TestClient(t.app);
    await signIn(t, client);
    const token = client.cookies.get('hygie_session') ?? '';
    const res = await client.get('/api/logout');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('http://localhost:3000/security/login');
    const replay = new TestClient(t.app);
    replay.cookies.set('hygie_session', token);
    const me = await replay.get('/api/me');
    expect(me.statusCode).toBe(401);
    expect(me.json()).toMatchObject({ code: 'not_logged_in' });
  });

  it.each([
    ['/services', 'http://localhost:3000/services'],
    ['http://localhost:3000/profile?x=1', 'http://localhost:3000/profile?x=1'],
    ['https://evil.example/', 'http://localhost:3000/security/login'],
    ['//evil.example', 'http://localhost:3000/security/login'],
    ['/\\evil.example', 'http://localhost:3000/security/login'],
    ['https://localhost:3000@evil.example/', 'http://localhost:3000/security/login'],
  ])('logout keeps target_uri %s only on the API origin', async (target, expected) => {
    const res = await new TestClient(t.app).get(
      `/api/logout?target_uri=${encodeURIComponent(target)}`,
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(expected);
  });

  it('expires an idle session, and "stay signed in" slides it', async () => {
    const client = new TestClient(t.app);
    await signIn(t, client);
    t.clock.advance(25 * 60_000);
    const extended = await client.post('/api/session/extend');
    expect(extended.statusCode).toBe(200);
    t.clock.advance(25 * 60_000); // 50 min after login, 25 after the extension
    expect((await client.get('/api/me')).statusCode).toBe(200);
    t.clock.advance(31 * 60_000);
    const expired = await client.get('/api/me');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'session_expired' });
    expect((await client.get('/api/me')).json()).toMatchObject({ code: 'not_logged_in' });
  });

  it('never extends a session past its absolute expiry (12 h)', async () => {
    const client = new TestClient(t.app);
    await signIn(t, client);
    for (let i = 0; i < 24; i++) {
      t.clock.advance(29 * 60_000);
      const res = await client.post('/api/session/extend');
      if (res.statusCode !== 200) break;
      const body = res.json<{ session: { expiresAt: string; absoluteExpiresAt: string } }>();
      expect(Date.parse(body.session.expiresAt)).toBeLessThanOrEqual(
        Date.parse(body.session.absoluteExpiresAt),
      );
    }
    t.clock.advance(12 * 60 * 60_000);
    expect((await client.get('/api/me')).json()).toMatchObject({ code: 'session_expired' });
  });

  it('ignores fields it does not know (no mass assignment)', async () => {
    const client = new TestClient(t.app);
    const res = await client.post('/api/login', {
      username: 'patient@hygie.test',
      password: 'Patient-Passw0rd',
      roles: ['admin'],
      status: 'active',
    });
    expect(res.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    expect(
      (await signIn(t, client, 'patient@hygie.test', 'Patient-Passw0rd')).json(),
    ).toMatchObject({ roles: [] });
  });

  it('upgrades a hash made with other argon2 parameters at the next login', async () => {
    await addUser(t, { email: 'old-hash@hygie.test', password: 'Old-Hash-Passw0rd' });
    const older = await hash('Old-Hash-Passw0rd', {
      algorithm: 2,
      memoryCost: 8192,
      timeCost: 3,
      parallelism: 1,
    });
    await t.ctx.db
      .updateTable('users')
      .set({ password_hash: older })
      .where('email', '=', 'old-hash@hygie.test')
      .execute();
    expect(
      (await new TestClient(t.app).login('old-hash@hygie.test', 'Old-Hash-Passw0rd')).json(),
    ).toMatchObject({ code: 'two_factor_authentication_required' });
    const row = await t.ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'old-hash@hygie.test')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).not.toBe(older);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=8192,t=1,p=1\$/);
    expect(
      (await new TestClient(t.app).login('old-hash@hygie.test', 'Old-Hash-Passw0rd')).json(),
    ).toMatchObject({ code: 'two_factor_authentication_required' });
  });
});
