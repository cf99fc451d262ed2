import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminUserDetail } from '@hygie/domain';
import type { TestApp } from '../../test/helpers.js';
import { upsertArtefact } from '../oidc/repository.js';
import {
  ADMIN,
  createTestApp,
  lastCode,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';

// The operator's actions on one account (#14): each audited, the owner told, the destructive ones
// behind a fresh proof, never the last active admin.

describe.each(DIALECTS)('user administration on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  let adminId: string;
  let seq = 0;

  /** A signed-in patient with a fresh address; returns their id and client. */
  async function patient(extra: { roles?: string[] } = {}) {
    seq += 1;
    const email = `person-${seq}@hygie.test`;
    const password = `Person-Passw0rd-${seq}`;
    const id = await createUser(t, { email, password, phone: `+336570000${10 + seq}`, ...extra });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, password)).statusCode).toBe(200);
    return { id, email, password, client };
  }

  /** A test that moves the clock by hours ends the admin's session too: sign in again. */
  async function adminBack() {
    if ((await admin.get('/api/me')).statusCode !== 200) {
      expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    }
  }
  beforeEach(adminBack);

  /** The admin passes a second factor again: the acts that cut access are allowed for 5 minutes. */
  async function fresh(client = admin, email = ADMIN.email) {
    t.clock.advance(61_000); // past the resend cooldown of the previous code
    const sent = await client.post('/api/session/second-factor/send', { provider: 'email' });
    expect(sent.statusCode).toBe(200);
    const res = await client.post('/api/session/second-factor/verify', {
      provider: 'email',
      code: await lastCode(t, email),
    });
    expect(res.json()).toEqual({ ok: true });
  }

  const detail = async (id: string) =>
    (await admin.get(`/api/admin/users/${id}`)).json<AdminUserDetail>();

  const eventsOf = (id: string) =>
    t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', id)
      .orderBy('at', 'desc')
      .execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    adminId = (await admin.get('/api/me')).json<{ id: string }>().id;
  });
  afterAll(() => t.close());

  it('shows one user in detail: identity, channels, sessions, trusted browser, access, last events', async () => {
    seq += 1;
    const email = `detail-${seq}@hygie.test`;
    const id = await createUser(t, {
      email,
      password: 'Detail-Passw0rd-1',
      phone: '+33657000001',
      ins: '285047512345678',
    });
    const client = new TestClient(t.app);
    await signIn(t, client, email, 'Detail-Passw0rd-1', { trustDevice: true });
    const user = await detail(id);
    expect(user.profile).toMatchObject({
      email,
      emailVerified: true,
      phone: '+33657000001',
      phoneVerified: true,
      status: 'active',
      ins: '285047512345678',
    });
    expect(user.roles).toEqual([]);
    expect(user.invitationPending).toBe(false);
    expect(user.lastSignInAt).toBe(new Date(t.clock.now()).toISOString());
    expect(user.sessions).toHaveLength(1);
    expect(user.sessions[0]).toMatchObject({ complete: true, methods: ['pwd', 'otp'] });
    expect(user.trustedDevices).toHaveLength(1);
    expect(user.events.map((e) => e.action)).toContain('login');
    expect(user.events[0]?.requestId).toEqual(expect.any(String));
    expect(Array.isArray(user.platforms)).toBe(true);
    expect((await admin.get('/api/admin/users/no-such-user')).statusCode).toBe(404);

    // What the person granted platforms: live grants only, named by their platform when known.
    const nowSeconds = Math.floor(t.clock.now() / 1000);
    const grant = (clientId: string, exp: number) => ({
      payload: JSON.stringify({
        kind: 'Grant',
        accountId: id,
        clientId,
        openid: { scope: 'openid profile' },
        iat: nowSeconds - 60,
        exp,
      }),
      grant_id: null,
      user_code: null,
      uid: null,
      account_id: id,
      expires_at: exp * 1000,
    });
    await upsertArtefact(
      t.ctx.db,
      `grant-live-${seq}`,
      'Grant',
      grant('gone-platform', nowSeconds + 3600),
    );
    await upsertArtefact(
      t.ctx.db,
      `grant-old-${seq}`,
      'Grant',
      grant('old-platform', nowSeconds - 1),
    );
    expect((await detail(id)).consents).toEqual([
      {
        clientId: 'gone-platform',
        platform: null,
        scopes: ['openid', 'profile'],
        grantedAt: new Date((nowSeconds - 60) * 1000).toISOString(),
        expiresAt: new Date((nowSeconds + 3600) * 1000).toISOString(),
      },
    ]);
  });

  it('locks an account only with a fresh second factor; the owner is signed out everywhere and told', async () => {
    const person = await patient();
    // The admin's last proof is older than 5 minutes (signIn moved the clock 13 minutes).
    const stale = await admin.post(`/api/admin/users/${person.id}/lock`);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'second_factor_required' });
    expect((await person.client.get('/api/me')).statusCode).toBe(200);

    // The password re-entered is one factor: not enough to cut someone else's access.
    expect(
      (await admin.post('/api/session/reauthenticate', { password: ADMIN.password })).statusCode,
    ).toBe(200);
    const password = await admin.post(`/api/admin/users/${person.id}/lock`);
    expect(password.statusCode).toBe(403);
    expect(password.json()).toMatchObject({
      code: 'second_factor_required',
      data: { two_factor_providers: ['email'], email_hint: expect.stringContaining('@') },
    });
    const wrong = await admin.post('/api/session/second-factor/verify', {
      provider: 'email',
      code: '000000',
    });
    expect(wrong.statusCode).toBe(400);

    await fresh();
    expect((await admin.post(`/api/admin/users/${person.id}/lock`)).json()).toEqual({ ok: true });
    const stepUp = (await eventsOf(adminId)).find(
      (e) => e.action === 'second_factor_passed' && e.details?.includes('stepUp'),
    );
    expect(stepUp).toBeDefined();
    expect((await person.client.get('/api/me')).statusCode).toBe(401);
    const again = await new TestClient(t.app).login(person.email, person.password);
    expect(again.statusCode).toBe(423);
    expect((await messagesTo(t, person.email))[0]).toMatchObject({ template: 'account_locked' });
    const event = (await eventsOf(person.id)).find((e) => e.action === 'account_locked');
    expect(event).toMatchObject({ actor_id: adminId, ip: expect.any(String) });
    expect(event?.request_id).toEqual(expect.any(String));
    // Locking twice is a conflict, not a second e-mail.
    expect((await admin.post(`/api/admin/users/${person.id}/lock`)).json()).toMatchObject({
      code: 'account_state_conflict',
    });
    expect((await admin.post(`/api/admin/users/${person.id}/unlock`)).json()).toEqual({ ok: true });
    expect((await messagesTo(t, person.email))[0]?.params).toMatchObject({ change: 'reopened' });
  });

  it('an unlock frees every client the account’s failures slowed, not only the account', async () => {
    const person = await patient();
    // The admin's fresh proof first: it moves the clock by a minute.
    await fresh();
    // Another browser, at another address, fails five times: it waits a minute before its next.
    const stranger = new TestClient(t.app);
    for (let i = 0; i < 5; i++) {
      expect((await stranger.login(person.email, 'Not-The-Passw0rd')).statusCode).toBe(401);
    }
    const held = await stranger.login(person.email, person.password);
    expect(held.statusCode).toBe(429);
    expect(held.json()).toMatchObject({ code: 'too_many_attempts' });
    expect((await admin.post(`/api/admin/users/${person.id}/lock`)).json()).toEqual({ ok: true });
    expect((await admin.post(`/api/admin/users/${person.id}/unlock`)).json()).toEqual({ ok: true });
    // The clock has not reached the minute: only the unlock's reset lets the right password in.
    const freed = await stranger.login(person.email, person.password);
    expect(freed.statusCode).not.toBe(429);
    expect(freed.json()).not.toMatchObject({ code: 'too_many_attempts' });
  });

  it('disables an account: sign-in and password reset refused with a clear code, until enabled', async () => {
    const person = await patient();
    await fresh();
    expect((await admin.post(`/api/admin/users/${person.id}/disable`)).json()).toEqual({
      ok: true,
    });
    expect((await person.client.get('/api/me')).statusCode).toBe(401);
    const refused = await new TestClient(t.app).login(person.email, person.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'account_disabled',
      data: { contactEmail: expect.any(String) },
    });
    const sentBefore = (await messagesTo(t, person.email)).length;
    t.clock.advance(2 * 60_000);
    const forgot = await new TestClient(t.app).post('/api/password/forgot', {
      username: person.email,
      channel: 'email',
    });
    expect(forgot.statusCode).toBe(200);
    expect(await messagesTo(t, person.email)).toHaveLength(sentBefore);
    expect((await messagesTo(t, person.email))[0]?.params).toMatchObject({ change: 'disabled' });
    expect((await detail(person.id)).profile.status).toBe('disabled');

    expect((await admin.post(`/api/admin/users/${person.id}/enable`)).json()).toEqual({ ok: true });
    expect((await signIn(t, new TestClient(t.app), person.email, person.password)).statusCode).toBe(
      200,
    );
    expect((await eventsOf(person.id)).map((e) => e.action)).toEqual(
      expect.arrayContaining(['account_disabled', 'account_enabled']),
    );
  });

  it('ends every session of a user; the password still works', async () => {
    const person = await patient();
    await fresh();
    expect((await admin.post(`/api/admin/users/${person.id}/end-sessions`)).json()).toEqual({
      ok: true,
    });
    expect((await person.client.get('/api/me')).statusCode).toBe(401);
    expect((await detail(person.id)).sessions).toEqual([]);
    expect((await signIn(t, new TestClient(t.app), person.email, person.password)).statusCode).toBe(
      200,
    );
  });

  it('e-mails a password link valid a day; the new password works and everything else ends', async () => {
    const person = await patient();
    expect((await admin.post(`/api/admin/users/${person.id}/send-password-reset`)).json()).toEqual({
      ok: true,
    });
    const [mail] = await messagesTo(t, person.email);
    expect(mail?.template).toBe('password_reset_link');
    const link = new URL(mail?.params.link ?? '');
    expect(link.pathname).toBe('/security/forgot-password');
    const resetToken = link.searchParams.get('token') ?? '';
    // Read hours later: still valid.
    t.clock.advance(6 * 60 * 60_000);
    const reset = await new TestClient(t.app).post('/api/password/reset', {
      resetToken,
      password: 'Brand-New-Passw0rd-9',
      passwordConfirmation: 'Brand-New-Passw0rd-9',
    });
    expect(reset.json()).toEqual({ ok: true });
    expect((await person.client.get('/api/me')).statusCode).toBe(401);
    expect(
      (await signIn(t, new TestClient(t.app), person.email, 'Brand-New-Passw0rd-9')).statusCode,
    ).toBe(200);

    // A second link replaces the first, and a link expires after a day.
    await adminBack();
    await admin.post(`/api/admin/users/${person.id}/send-password-reset`);
    const first = new URL((await messagesTo(t, person.email))[0]?.params.link ?? '');
    await admin.post(`/api/admin/users/${person.id}/send-password-reset`);
    const second = new URL((await messagesTo(t, person.email))[0]?.params.link ?? '');
    const tryLink = (url: URL) =>
      new TestClient(t.app).post('/api/password/reset', {
        resetToken: url.searchParams.get('token'),
        password: 'Another-Passw0rd-77',
        passwordConfirmation: 'Another-Passw0rd-77',
      });
    expect((await tryLink(first)).json()).toMatchObject({ code: 'link_expired' });
    t.clock.advance(25 * 60 * 60_000);
    expect((await tryLink(second)).json()).toMatchObject({ code: 'link_expired' });
  });

  it('sends an invited user a new first-login link; the old one stops working', async () => {
    const invited = await admin.post('/api/admin/invitations', { email: 'late@hygie.test' });
    const { userId } = invited.json<{ userId: string }>();
    expect((await detail(userId)).invitationPending).toBe(true);
    const oldLink = new URL((await messagesTo(t, 'late@hygie.test'))[0]?.params.link ?? '');
    expect((await admin.post(`/api/admin/users/${userId}/resend-invitation`)).json()).toEqual({
      ok: true,
    });
    const newLink = new URL((await messagesTo(t, 'late@hygie.test'))[0]?.params.link ?? '');
    expect(newLink.href).not.toBe(oldLink.href);
    const check = (url: URL) => new TestClient(t.app).get(`/api/first-login${url.search}`);
    expect((await check(oldLink)).json()).toMatchObject({ code: 'link_expired' });
    expect((await check(newLink)).statusCode).toBe(200);
    // Someone who already has a password is not "invited" again.
    const person = await patient();
    expect(
      (await admin.post(`/api/admin/users/${person.id}/resend-invitation`)).json(),
    ).toMatchObject({ code: 'account_state_conflict' });
  });

  it('makes a user an admin and back; the last active admin cannot be demoted, locked or deleted', async () => {
    const person = await patient();
    await fresh();
    const promote = await admin.post(`/api/admin/users/${person.id}/set-role`, { role: 'admin' });
    expect(promote.json()).toEqual({ ok: true });
    expect((await person.client.get('/api/admin/settings')).statusCode).toBe(200);
    expect((await messagesTo(t, person.email))[0]?.params).toMatchObject({
      change: 'admin_granted',
    });
    expect(
      (await admin.post(`/api/admin/users/${person.id}/set-role`, { role: 'user' })).json(),
    ).toEqual({ ok: true });
    expect((await person.client.get('/api/admin/settings')).statusCode).toBe(403);
    expect(
      (await admin.post(`/api/admin/users/${person.id}/set-role`, { role: 'owner' })).statusCode,
    ).toBe(400);

    // Alone, the admin cannot step down, lock or disable themself, nor delete their own account.
    for (const [url, body] of [
      [`/api/admin/users/${adminId}/set-role`, { role: 'user' }],
      [`/api/admin/users/${adminId}/lock`, {}],
      [`/api/admin/users/${adminId}/disable`, {}],
    ] as const) {
      expect((await admin.post(url, body)).json()).toMatchObject({ code: 'last_admin' });
    }
    const own = await admin.request({ method: 'DELETE', url: `/api/admin/users/${adminId}` });
    expect(own.statusCode).toBe(403);
    expect((await admin.get('/api/admin/settings')).statusCode).toBe(200);
  });

  it('two admins demoting each other at once: one of them stays admin', async () => {
    const other = await patient({ roles: ['admin'] });
    await fresh();
    await fresh(other.client, other.email);
    const [a, b] = await Promise.all([
      admin.post(`/api/admin/users/${other.id}/set-role`, { role: 'user' }),
      other.client.post(`/api/admin/users/${adminId}/set-role`, { role: 'user' }),
    ]);
    const outcomes = [
      a.json<{ code?: string }>().code ?? 'ok',
      b.json<{ code?: string }>().code ?? 'ok',
    ];
    // The loser is no admin any more when its turn comes, under the lock or at the door.
    expect(outcomes.sort()).toEqual(['forbidden', 'ok']);
    const admins = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('roles', 'like', '%"admin"%')
      .execute();
    expect(admins).toHaveLength(1);
    // Put the original admin back in charge for the tests that follow.
    if (admins[0]?.id !== adminId) {
      await fresh(other.client, other.email);
      await other.client.post(`/api/admin/users/${adminId}/set-role`, { role: 'admin' });
    }
  });

  it('deletes an account: personal data gone, sign-in refused, the trail kept without addresses', async () => {
    const person = await patient();
    await fresh();
    const removed = await admin.request({ method: 'DELETE', url: `/api/admin/users/${person.id}` });
    expect(removed.json()).toEqual({ ok: true });
    expect((await person.client.get('/api/me')).statusCode).toBe(401);
    expect(
      await t.ctx.db.selectFrom('users').select('id').where('id', '=', person.id).execute(),
    ).toEqual([]);
    expect((await new TestClient(t.app).login(person.email, person.password)).json()).toMatchObject(
      { code: 'bad_credentials' },
    );
    const events = await eventsOf(person.id);
    const deleted = events.find((e) => e.action === 'account_deleted');
    expect(deleted).toMatchObject({ actor_id: adminId, ip: expect.any(String) });
    const own = events.filter((e) => e.actor_id === person.id);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e) => e.ip === null && e.user_agent === null)).toBe(true);
    expect((await messagesTo(t, person.email))[0]?.params).toMatchObject({ change: 'deleted' });
    expect((await admin.get(`/api/admin/users/${person.id}`)).statusCode).toBe(404);
  });

  it('finds users by status and role', async () => {
    const search = async (query: string) =>
      (await admin.get(`/api/admin/users?${query}`)).json<{ items: { id: string }[] }>().items;
    expect((await search('role=admin')).map((u) => u.id)).toContain(adminId);
    expect((await search('role=user')).map((u) => u.id)).not.toContain(adminId);
    const person = await patient();
    await fresh();
    await admin.post(`/api/admin/users/${person.id}/disable`);
    expect((await search('status=disabled')).map((u) => u.id)).toEqual([person.id]);
  });
});
