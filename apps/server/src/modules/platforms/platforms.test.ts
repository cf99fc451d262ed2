import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { CreatedPlatform } from '@hygie/domain';
import { hashToken } from '../../lib/tokens.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';

const PLATFORM = {
  name: 'Téléconsultation',
  description: 'Consultations vidéo',
  url: 'https://teleconsultation.example',
  logoUrl: 'https://teleconsultation.example/logo.svg',
  redirectUris: ['https://teleconsultation.example/callback'],
  postLogoutRedirectUris: ['https://teleconsultation.example/'],
};

describe.each(DIALECTS)('platforms registry and "My services" on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  let user: TestClient;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    await signIn(t, admin);
    userId = await createUser(t, {
      email: 'someone@hygie.test',
      password: 'Someone-Passw0rd!',
      phone: '+33612345678',
    });
    user = new TestClient(t.app);
    await signIn(t, user, 'someone@hygie.test', 'Someone-Passw0rd!');
  });
  afterAll(() => t.close());

  async function create(body: Record<string, unknown> = {}): Promise<CreatedPlatform> {
    const res = await admin.post('/api/admin/platforms', { ...PLATFORM, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CreatedPlatform>();
  }

  it.each<[string, InjectOptions['method'], string, InjectOptions['payload']]>([
    ['list', 'GET', '/api/admin/platforms', undefined],
    ['read', 'GET', '/api/admin/platforms/some-id', undefined],
    ['create', 'POST', '/api/admin/platforms', PLATFORM],
    ['update', 'PATCH', '/api/admin/platforms/some-id', { name: 'X' }],
    ['delete', 'DELETE', '/api/admin/platforms/some-id', undefined],
    ['set access', 'PUT', '/api/admin/users/some-id/platforms/some-id', { enabled: false }],
  ])(
    'admin API %s: 401 without a session, 403 for a non-admin',
    async (_label, method, url, payload) => {
      const anonymous = await new TestClient(t.app).request({
        method,
        url,
        payload,
      });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'not_logged_in' });
      const forbidden = await user.request({
        method,
        url,
        payload,
      });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toMatchObject({ code: 'forbidden' });
    },
  );

  it('creates a platform, shows its secret once and keeps only its hash', async () => {
    const created = await create();
    expect(created).toMatchObject({
      ...PLATFORM,
      public: false,
      accessPolicy: 'open',
      firstParty: true,
    });
    expect(created.clientSecret).toMatch(/^[\w-]{43}$/);
    const row = await t.ctx.db
      .selectFrom('platforms')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.client_secret_hash).toBe(hashToken(created.clientSecret ?? ''));
    expect(JSON.stringify(row)).not.toContain(created.clientSecret);

    const read = await admin.get(`/api/admin/platforms/${created.id}`);
    expect(read.json()).not.toHaveProperty('clientSecret');
    const list = (await admin.get('/api/admin/platforms')).json<{ platforms: unknown[] }>();
    expect(JSON.stringify(list)).not.toContain(created.clientSecret);
    expect(list.platforms).toContainEqual(expect.objectContaining({ id: created.id }));

    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'platform_created')
      .where('target_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).not.toContain(created.clientSecret);
  });

  it('creates a public client without a secret', async () => {
    const created = await create({ name: 'App mobile', public: true });
    expect(created.public).toBe(true);
    expect(created.clientSecret).toBeNull();
  });

  it.each([
    ['an http redirect URI off loopback', { redirectUris: ['http://platform.example/cb'] }],
    ['a redirect URI with a fragment', { redirectUris: ['https://platform.example/cb#x'] }],
    ['no redirect URI', { redirectUris: [] }],
    ['credentials in a URI', { url: 'https://user:pw@platform.example/' }],
    ['an unknown policy', { accessPolicy: 'everyone' }],
  ])('refuses %s', async (_label, body) => {
    const res = await admin.post('/api/admin/platforms', { ...PLATFORM, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error' });
  });

  it('updates and deletes a platform, audited', async () => {
    const created = await create({ name: 'Éphémère' });
    const updated = await admin.request({
      method: 'PATCH',
      url: `/api/admin/platforms/${created.id}`,
      payload: { accessPolicy: 'on_request', redirectUris: ['https://new.example/cb'] },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Éphémère',
      accessPolicy: 'on_request',
      redirectUris: ['https://new.example/cb'],
    });
    const removed = await admin.request({
      method: 'DELETE',
      url: `/api/admin/platforms/${created.id}`,
    });
    expect(removed.json()).toEqual({ ok: true });
    expect((await admin.get(`/api/admin/platforms/${created.id}`)).statusCode).toBe(404);
    const again = await admin.request({
      method: 'DELETE',
      url: `/api/admin/platforms/${created.id}`,
    });
    expect(again.statusCode).toBe(404);
    const actions = await t.ctx.db
      .selectFrom('audit_events')
      .select('action')
      .where('target_id', '=', created.id)
      .execute();
    expect(actions.map((a) => a.action).sort()).toEqual([
      'platform_created',
      'platform_deleted',
      'platform_updated',
    ]);
  });

  it('"My services" lists every platform with what the access rule lets the user do', async () => {
    const open = await create({ name: 'Ouverte' });
    const onRequest = await create({ name: 'Sur demande', accessPolicy: 'on_request' });
    const adminOnly = await create({ name: 'Sur décision', accessPolicy: 'admin' });
    const services = async () =>
      new Map(
        (await user.get('/api/services'))
          .json<{
            services: { id: string; usable: boolean; action: string }[];
          }>()
          .services.map((s) => [s.id, s]),
      );
    let listed = await services();
    expect(listed.get(open.id)).toMatchObject({
      name: 'Ouverte',
      description: PLATFORM.description,
      url: PLATFORM.url,
      logoUrl: PLATFORM.logoUrl,
      accessPolicy: 'open',
      usable: true,
      action: 'open',
    });
    expect(listed.get(onRequest.id)).toMatchObject({ usable: false, action: 'enable' });
    expect(listed.get(adminOnly.id)).toMatchObject({ usable: false, action: 'request' });
    expect(JSON.stringify([...listed.values()])).not.toMatch(/clientId|secret|redirect/i);

    await user.post(`/api/services/${onRequest.id}/enable`);
    await user.post(`/api/services/${adminOnly.id}/enable`);
    listed = await services();
    expect(listed.get(onRequest.id)).toMatchObject({ usable: true, action: 'open' });
    expect(listed.get(adminOnly.id)).toMatchObject({ usable: false, action: 'pending' });

    // An admin's "disabled" wins, and the user cannot undo it.
    await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${userId}/platforms/${open.id}`,
      payload: { enabled: false },
    });
    expect((await services()).get(open.id)).toMatchObject({ usable: false, action: 'none' });
    const refused = await user.post(`/api/services/${open.id}/enable`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'access_denied' });

    expect((await new TestClient(t.app).get('/api/services')).statusCode).toBe(401);
    expect((await user.post('/api/services/unknown/enable')).statusCode).toBe(404);
  });

  it('answers 404 for an access change naming an unknown user or platform', async () => {
    const platform = await create({ name: 'Cible' });
    for (const url of [
      `/api/admin/users/nobody/platforms/${platform.id}`,
      `/api/admin/users/${userId}/platforms/nothing`,
    ]) {
      const res = await admin.request({ method: 'PUT', url, payload: { enabled: true } });
      expect(res.statusCode).toBe(404);
    }
  });
});
