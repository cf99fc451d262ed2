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

describe.each(DIALECTS)('administration on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  let patient: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    await createUser(t, {
      email: 'plain@hygie.test',
      password: 'Plain-Passw0rd-1',
      phone: '+33656000001',
    });
    patient = new TestClient(t.app);
    expect((await signIn(t, patient, 'plain@hygie.test', 'Plain-Passw0rd-1')).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('answers 403 to a non-admin and 401 to nobody on every admin route', async () => {
    const doc = (await admin.get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map(
          (m) => [m.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')] as const,
        ),
      );
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const [method, url] of routes) {
      const asPatient = await patient.request({
        method,
        url,
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect({ method, url, status: asPatient.statusCode }).toEqual({ method, url, status: 403 });
      const anonymous = await new TestClient(t.app).request({
        method,
        url,
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect({ method, url, status: anonymous.statusCode }).toEqual({ method, url, status: 401 });
    }
  });

  it('edits PASSWORD_EXPIRATION_DELAY; a user is then sent to password renewal; reset restores the default', async () => {
    const list = (await admin.get('/api/admin/settings')).json<
      {
        key: string;
        value: number | null;
        defaultValue: number | null;
      }[]
    >();
    expect(list.find((s) => s.key === 'PASSWORD_EXPIRATION_DELAY')).toMatchObject({
      value: null,
      defaultValue: null,
      nullable: true,
    });
    const tooShort = await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/PASSWORD_EXPIRATION_DELAY',
      payload: { value: 5 },
    });
    expect(tooShort.json()).toMatchObject({ code: 'settings_update_failed', data: { min: 3600 } });
    const set = await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/PASSWORD_EXPIRATION_DELAY',
      payload: { value: 90 * 24 * 3600 },
    });
    expect(set.json()).toMatchObject({ value: 7776000, updatedBy: ADMIN.email });
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .select(['action', 'details'])
      .where('action', '=', 'setting_changed')
      .execute();
    expect(JSON.parse(audit.at(-1)?.details ?? '{}')).toEqual({
      key: 'PASSWORD_EXPIRATION_DELAY',
      old: null,
      new: 7776000,
    });

    await createUser(t, {
      email: 'aging@hygie.test',
      password: 'Aging-Passw0rd-1',
      phone: '+33656000002',
      passwordChangedAt: t.clock.now() - 100 * 24 * 3600_000,
    });
    const res = await signIn(t, new TestClient(t.app), 'aging@hygie.test', 'Aging-Passw0rd-1');
    expect(res.json()).toMatchObject({ code: 'password_expired' });

    const reset = await admin.request({
      method: 'DELETE',
      url: '/api/admin/settings/PASSWORD_EXPIRATION_DELAY',
    });
    expect(reset.json()).toMatchObject({ value: null });
    expect(
      (await signIn(t, new TestClient(t.app), 'aging@hygie.test', 'Aging-Passw0rd-1')).statusCode,
    ).toBe(200);
    const disable = await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/TRUSTED_DEVICE_DAYS',
      payload: { value: null },
    });
    expect(disable.statusCode).toBe(400);
  });

  it('applies a shorter session timeout from the settings', async () => {
    await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/SESSION_IDLE_TIMEOUT',
      payload: { value: 600 },
    });
    try {
      const client = new TestClient(t.app);
      await signIn(t, client, 'plain@hygie.test', 'Plain-Passw0rd-1');
      t.clock.advance(11 * 60_000);
      expect((await client.get('/api/me')).json()).toMatchObject({ code: 'session_expired' });
    } finally {
      await admin.request({ method: 'DELETE', url: '/api/admin/settings/SESSION_IDLE_TIMEOUT' });
    }
  });

  it('finds users by name, e-mail and identifier prefixes, paginated, with a no-user-found answer', async () => {
    await createUser(t, {
      email: 'zoe.durand@hygie.test',
      password: 'Search-Passw0rd-1',
      ins: '253072B07300470',
    });
    await t.ctx.db
      .updateTable('users')
      .set({ first_name: 'Zoé', last_name: 'Durand', search_name: 'durand zoe' })
      .where('email', '=', 'zoe.durand@hygie.test')
      .execute();
    await createUser(t, {
      email: 'pro.search@hygie.test',
      password: 'Search-Passw0rd-1',
      profile: 'professional',
      professionalId: { type: 'RPPS', value: '10002727377' },
    });
    const search = async (q: string, extra = '') =>
      (await admin.get(`/api/admin/users?q=${encodeURIComponent(q)}${extra}`)).json<{
        items: { email: string; type: string | null; platforms: unknown[] }[];
        nextCursor: string | null;
      }>();
    expect((await search('Durand')).items.map((u) => u.email)).toEqual(['zoe.durand@hygie.test']);
    expect((await search('durand zo')).items.map((u) => u.email)).toEqual([
      'zoe.durand@hygie.test',
    ]);
    expect((await search('ZOE.DUR')).items.map((u) => u.email)).toEqual(['zoe.durand@hygie.test']);
    expect((await search('253072B07300470')).items.map((u) => u.email)).toEqual([
      'zoe.durand@hygie.test',
    ]);
    expect((await search('10002727377')).items.map((u) => u.email)).toEqual([
      'pro.search@hygie.test',
    ]);
    expect((await search('nobody-at-all')).items).toEqual([]);
    // Keyset pages: every account once, newest first, however many were created in one instant.
    const everyone = (await search('', '&pageSize=100')).items.map((u) => u.email);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const next: Awaited<ReturnType<typeof search>> = await search(
        '',
        `&pageSize=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(next.items.length).toBeLessThanOrEqual(2);
      paged.push(...next.items.map((u) => u.email));
      cursor = next.nextCursor;
    } while (cursor);
    expect(paged).toEqual(everyone);
    expect(everyone.length).toBeGreaterThan(3);
    const pros = (await search('', '&type=professional')).items;
    expect(pros.map((u) => u.email)).toContain('pro.search@hygie.test');
    expect(pros.every((u) => u.type === 'professional')).toBe(true);
    expect((await admin.get('/api/admin/users?cursor=bad')).statusCode).toBe(400);
    const bad = await admin.get('/api/admin/users?pageSize=1000');
    expect(bad.statusCode).toBe(400);
  });

  it('lists pending professionals, invites a person, unlocks a locked account', async () => {
    await createUser(t, {
      email: 'waiting@hygie.test',
      password: 'Waiting-Passw0rd-1',
      status: 'pending_validation',
      profile: 'professional',
    });
    const pending = (await admin.get('/api/admin/users?status=pending_validation')).json<{
      items: { email: string }[];
    }>();
    expect(pending.items.map((u) => u.email)).toContain('waiting@hygie.test');

    const invited = await admin.post('/api/admin/invitations', {
      email: 'guest@hygie.test',
      firstName: 'Paul',
      admin: false,
    });
    expect(invited.statusCode).toBe(201);
    expect((await messagesTo(t, 'guest@hygie.test'))[0]).toMatchObject({
      template: 'first_login_invitation',
    });
    expect(
      (await admin.post('/api/admin/invitations', { email: 'guest@hygie.test' })).json(),
    ).toMatchObject({ code: 'email_already_used' });

    const lockedId = await createUser(t, {
      email: 'locked-out@hygie.test',
      password: 'Locked-Passw0rd-1',
      status: 'locked',
      phone: '+33656000003',
    });
    expect(
      (await new TestClient(t.app).login('locked-out@hygie.test', 'Locked-Passw0rd-1')).statusCode,
    ).toBe(423);
    expect((await admin.post(`/api/admin/users/${lockedId}/unlock`)).json()).toEqual({ ok: true });
    expect(
      (await new TestClient(t.app).login('locked-out@hygie.test', 'Locked-Passw0rd-1')).json(),
    ).toMatchObject({ code: 'two_factor_authentication_required' });
    expect((await admin.post(`/api/admin/users/${lockedId}/unlock`)).json()).toMatchObject({
      code: 'account_state_conflict',
    });
    void lastCode;
  });
});
