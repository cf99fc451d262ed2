import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { loadSigningKeys, ROTATION_DELAYS_MS, rotateSigningKeys } from './keys.js';

describe.each(DIALECTS)('signing keys on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    await signIn(t, admin);
  });
  afterAll(() => t.close());

  it('are generated once and shared: every later start loads the same set', async () => {
    const first = await loadSigningKeys(t.ctx.db, Date.now());
    const again = await loadSigningKeys(t.ctx.db, Date.now());
    expect(again).toEqual(first);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    const published = (await t.app.inject({ url: '/oidc/jwks' })).json<{
      keys: { kid: string }[];
    }>();
    expect(published.keys.map((k) => k.kid)).toEqual([first[0]?.kid]);
    // Platforms may cache the key set, for less time than a staged key waits before it signs.
    const jwks = await t.app.inject({ url: '/oidc/jwks' });
    expect(jwks.headers['cache-control']).toBe('public, max-age=600');
    expect(ROTATION_DELAYS_MS.promote).toBeGreaterThan(600_000);
  });

  it('rotate in three audited steps: stage (published), promote (signs), retire', async () => {
    const [current] = await loadSigningKeys(t.ctx.db, Date.now());
    const rotate = (step: string) =>
      admin.post('/api/admin/oidc/keys/rotate', { step }).then((r) =>
        r.json<{
          keys: { kid: string; signing: boolean }[];
        }>(),
      );
    const staged = await rotate('stage');
    expect(staged.keys).toHaveLength(2);
    expect(staged.keys[0]).toEqual({ kid: current?.kid, alg: 'RS256', signing: true });
    const next = staged.keys[1]?.kid;
    // Too soon: platforms may not have fetched the new key yet.
    const early = await admin.post('/api/admin/oidc/keys/rotate', { step: 'promote' });
    expect(early.statusCode).toBe(429);
    expect(early.json()).toMatchObject({
      code: 'wait_before_retry',
      data: { retryAfterSeconds: ROTATION_DELAYS_MS.promote / 1000 },
    });
    t.clock.advance(ROTATION_DELAYS_MS.promote);
    const promoted = await rotate('promote');
    expect(promoted.keys.map((k) => k.kid)).toEqual([next, current?.kid]);
    // Too soon: ID tokens the old key signed still live.
    t.clock.advance(ROTATION_DELAYS_MS.retire - 60_000);
    await expect(rotateSigningKeys(t.ctx.db, 'retire', t.clock.now())).rejects.toMatchObject({
      code: 'wait_before_retry',
      data: { retryAfterSeconds: 60 },
    });
    t.clock.advance(60_000);
    await signIn(t, admin); // the wait outlived the admin's session
    const retired = await rotate('retire');
    expect(retired.keys.map((k) => k.kid)).toEqual([next]);
    expect((await admin.get('/api/admin/oidc/keys')).json()).toEqual(retired);
    const audits = await t.ctx.db
      .selectFrom('audit_events')
      .select('action')
      .where('action', '=', 'oidc_keys_rotated')
      .execute();
    expect(audits).toHaveLength(3);
    await expect(rotateSigningKeys(t.ctx.db, 'retire', t.clock.now())).resolves.toHaveLength(1);
  });

  it('the key routes answer 401 without a session and 403 to a non-admin', async () => {
    await createUser(t, {
      email: 'plain@hygie.test',
      password: 'Plain-Passw0rd!',
      phone: '+33612345678',
    });
    const user = new TestClient(t.app);
    await signIn(t, user, 'plain@hygie.test', 'Plain-Passw0rd!');
    for (const [method, url, payload] of [
      ['GET', '/api/admin/oidc/keys', undefined],
      ['POST', '/api/admin/oidc/keys/rotate', { step: 'stage' }],
    ] as const) {
      expect((await new TestClient(t.app).request({ method, url, payload })).statusCode).toBe(401);
      expect((await user.request({ method, url, payload })).statusCode).toBe(403);
    }
  });
});
