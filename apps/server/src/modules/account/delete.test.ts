import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';
import { upsertArtefact } from '../oidc/repository.js';

// "Delete my account" (issue #15): the person erases their own account after a step-up (the
// password, or a fresh second factor), by the same rule as an admin's deletion; the last active
// admin may not; a wrong password deletes nothing and is slowed like the others.

describe.each(DIALECTS)('deleting my own account on %s', (dialect) => {
  let t: TestApp;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A signed-in person with a fresh address; their id, client and password. */
  async function person(extra: { roles?: string[] } = {}) {
    seq += 1;
    const email = `leaving-${seq}@hygie.test`;
    const password = `Leaving-Passw0rd-${seq}`;
    const id = await createUser(t, { email, password, phone: `+336571000${10 + seq}`, ...extra });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, password)).statusCode).toBe(200);
    return { id, email, password, client };
  }

  const deleteMe = (client: TestClient, payload: object = {}) =>
    client.request({ method: 'DELETE', url: '/api/me', payload });

  const rowsOf = async (userId: string) => {
    const db = t.ctx.db;
    const count = async (
      table: 'sessions' | 'trusted_devices' | 'credentials' | 'consents' | 'known_browsers',
    ) =>
      (await db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;
    return {
      users: (await db.selectFrom('users').select('id').where('id', '=', userId).execute()).length,
      sessions: await count('sessions'),
      trustedDevices: await count('trusted_devices'),
      credentials: await count('credentials'),
      knownBrowsers: await count('known_browsers'),
      oidc: (
        await db.selectFrom('oidc_store').select('id').where('account_id', '=', userId).execute()
      ).length,
    };
  };

  it('erases the account with the password: signed out, cookie cleared, sign-in fails as for nobody, platforms and person told', async () => {
    const me = await person();
    // A platform holding a provider session for the person, told by back-channel notice.
    const now = t.clock.now();
    await t.ctx.db
      .insertInto('platforms')
      .values({
        id: 'platform-bye',
        client_id: 'bye-client',
        client_secret_hash: null,
        name: 'Agenda',
        description: null,
        url: 'https://agenda.example',
        logo_url: null,
        redirect_uris: '[]',
        post_logout_redirect_uris: '[]',
        backchannel_logout_uri: 'https://agenda.example/logout',
        access_policy: 'open',
        first_party: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await upsertArtefact(t.ctx.db, 'oidc-session-bye', 'Session', {
      payload: JSON.stringify({
        accountId: me.id,
        authorizations: { 'bye-client': { sid: 'sid-bye' } },
      }),
      grant_id: null,
      user_code: null,
      uid: 'uid-bye',
      account_id: me.id,
      expires_at: now + 3_600_000,
    });
    await t.ctx.db
      .insertInto('credentials')
      .values({
        id: 'key-bye',
        user_id: me.id,
        kind: 'webauthn',
        credential_id: 'cred-bye',
        public_key: 'pk',
        counter: 0,
        transports: null,
        device_name: 'Phone',
        user_verifying: 1,
        created_at: now,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();

    expect(await rowsOf(me.id)).toMatchObject({ users: 1, sessions: 1, credentials: 1 });
    expect((await rowsOf(me.id)).knownBrowsers).toBe(1);
    const res = await deleteMe(me.client, { password: me.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const cleared = res.cookies.find((c) => c.name.endsWith('hygie_session'));
    expect(cleared?.value).toBe('');
    expect((await me.client.get('/api/me')).statusCode).toBe(401);

    expect(await rowsOf(me.id)).toEqual({
      users: 0,
      sessions: 0,
      trustedDevices: 0,
      credentials: 0,
      knownBrowsers: 0,
      oidc: 0,
    });
    // Signing in again fails exactly as for an address that names no account.
    const again = await new TestClient(t.app).login(me.email, me.password);
    const nobody = await new TestClient(t.app).login('nobody-at-all@hygie.test', me.password);
    expect([again.statusCode, again.json<{ code: string }>().code]).toEqual([
      nobody.statusCode,
      nobody.json<{ code: string }>().code,
    ]);
    expect(again.json()).toMatchObject({ code: 'bad_credentials' });

    // The person is told at the address erased; the platform gets its notice.
    expect((await messagesTo(t, me.email))[0]).toMatchObject({
      template: 'account_changed',
      params: { change: 'self_deleted' },
    });
    const notice = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('channel', '=', 'logout')
      .where('recipient', '=', 'bye-client')
      .execute();
    expect(notice).toHaveLength(1);

    // The trail stays, without the person's addresses and browsers.
    const events = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', me.id)
      .execute();
    expect(events.find((e) => e.action === 'account_deleted')).toMatchObject({
      actor_id: me.id,
      ip: null,
      user_agent: null,
    });
    expect(events.filter((e) => e.action === 'login')).toHaveLength(1);
    expect(events.filter((e) => e.actor_id === me.id).every((e) => e.ip === null)).toBe(true);
  });

  it('refuses a wrong password with its message, deletes nothing, and slows the guesses', async () => {
    const me = await person();
    const wrong = await me.client.request({
      method: 'DELETE',
      url: '/api/me',
      payload: { password: 'Not-My-Passw0rd' },
      headers: { 'accept-language': 'en' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'wrong_current_password',
      message: 'Changes not saved, please check your password.',
    });
    for (let i = 0; i < 4; i += 1) {
      expect((await deleteMe(me.client, { password: `Guess-${i}-Wrong` })).statusCode).toBe(400);
    }
    const blocked = await deleteMe(me.client, { password: me.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'too_many_attempts' });
    expect((await me.client.get('/api/me')).statusCode).toBe(200);
    expect((await rowsOf(me.id)).users).toBe(1);
    // An empty password is a validation error, not a guess.
    expect((await deleteMe(me.client, { password: '' })).json()).toMatchObject({
      code: 'validation_error',
    });
  });

  it('without the password, asks for a fresh second factor, then erases', async () => {
    const me = await person();
    // signIn passed a second factor: more than 5 minutes ago now.
    t.clock.advance(6 * 60_000);
    const stale = await deleteMe(me.client);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({
      code: 'second_factor_required',
      data: { two_factor_providers: ['email', 'sms'] },
    });
    expect((await rowsOf(me.id)).users).toBe(1);

    expect(
      (await me.client.post('/api/session/second-factor/send', { provider: 'email' })).statusCode,
    ).toBe(200);
    const verified = await me.client.post('/api/session/second-factor/verify', {
      provider: 'email',
      code: await lastCode(t, me.email),
    });
    expect(verified.json()).toEqual({ ok: true });
    expect((await deleteMe(me.client)).statusCode).toBe(200);
    expect((await rowsOf(me.id)).users).toBe(0);
  });

  it('answers two parallel deletions once: the other fails cleanly', async () => {
    const me = await person();
    const answers = await Promise.all([
      deleteMe(me.client, { password: me.password }),
      deleteMe(me.client, { password: me.password }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    expect(answers.find((a) => a.statusCode === 401)?.json()).toMatchObject({
      code: 'not_logged_in',
    });
    expect((await rowsOf(me.id)).users).toBe(0);
    const deletions = await t.ctx.db
      .selectFrom('audit_events')
      .select('id')
      .where('target_id', '=', me.id)
      .where('action', '=', 'account_deleted')
      .execute();
    expect(deletions).toHaveLength(1);
  });

  it('keeps the last active admin: 409 last_admin, even when two admins leave at once', async () => {
    const admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    const alone = await deleteMe(admin, { password: ADMIN.password });
    expect(alone.statusCode).toBe(409);
    expect(alone.json()).toMatchObject({ code: 'last_admin' });
    expect((await admin.get('/api/me')).statusCode).toBe(200);

    // Another admin may leave while one remains.
    const other = await person({ roles: ['admin'] });
    expect((await deleteMe(other.client, { password: other.password })).statusCode).toBe(200);

    // Two admins, the portal's only active ones, leave at once: one goes, one stays.
    const [a, b] = [await person({ roles: ['admin'] }), await person({ roles: ['admin'] })];
    await t.ctx.db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('email', '=', ADMIN.email)
      .execute();
    try {
      const answers = await Promise.all([
        deleteMe(a.client, { password: a.password }),
        deleteMe(b.client, { password: b.password }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)?.json()).toMatchObject({
        code: 'last_admin',
      });
      expect((await rowsOf(a.id)).users + (await rowsOf(b.id)).users).toBe(1);
    } finally {
      await t.ctx.db
        .updateTable('users')
        .set({ status: 'active' })
        .where('email', '=', ADMIN.email)
        .execute();
    }
  });

  it('an admin still deletes someone else only from the admin area, and not themself there', async () => {
    const admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    const adminId = (await admin.get('/api/me')).json<{ id: string }>().id;
    const own = await admin.request({ method: 'DELETE', url: `/api/admin/users/${adminId}` });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: 'forbidden' });
  });

  it('needs a session', async () => {
    const res = await new TestClient(t.app).request({
      method: 'DELETE',
      url: '/api/me',
      payload: { password: 'whatever-it-is' },
    });
    expect(res.statusCode).toBe(401);
  });
});
