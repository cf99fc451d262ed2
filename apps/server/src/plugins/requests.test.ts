import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, DIALECTS, signIn, TestClient } from '../test/helpers.js';

describe.each(DIALECTS)('request handling on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers malformed JSON with 400 invalid_json and keeps serving', async () => {
    const client = new TestClient(t.app);
    const res = await client.request({
      method: 'POST',
      url: '/api/login',
      payload: '{"username": "a@b.fr", "password": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_json', message: expect.any(String) });
    expect((await client.get('/api/health')).statusCode).toBe(200);
  });

  it.each([
    ['text/plain', 'username=a'],
    ['application/x-www-form-urlencoded', 'username=a&password=b'],
    ['application/xml', '<login/>'],
  ])('answers a %s body with 415', async (type, body) => {
    const res = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/login',
      payload: body,
      headers: { 'content-type': type },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers an oversized body with 413', async () => {
    const res = await new TestClient(t.app).post('/api/login', {
      username: 'a@b.fr',
      password: 'x'.repeat(70 * 1024),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it.each([
    [{}, 'username'],
    [{ username: 'a@b.fr' }, 'password'],
    [{ username: 'a@b.fr', password: 7 }, 'password'],
    [{ username: 'a'.repeat(181), password: 'x' }, 'username'],
    [{ username: 'a@b.fr', password: 'x'.repeat(129) }, 'password'],
  ])(
    'answers an invalid login body %j with 400 validation_error naming the field',
    async (body, field) => {
      const res = await new TestClient(t.app).post('/api/login', body);
      expect(res.statusCode).toBe(400);
      const json = res.json<{ code: string; data: { fields: { path: string }[] } }>();
      expect(json.code).toBe('validation_error');
      expect(json.data.fields.map((f) => f.path)).toContain(field);
    },
  );

  it('answers a JSON array or scalar body with a 400, never a 500', async () => {
    for (const payload of ['[]', '"x"', '42', 'null']) {
      const res = await new TestClient(t.app).request({
        method: 'POST',
        url: '/api/login',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it('answers unknown API routes with 404 not_found in JSON', async () => {
    const res = await new TestClient(t.app).get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('speaks the language of ?l=, falls back to fr for an unknown one', async () => {
    const ar = await new TestClient(t.app).get('/api/me?l=ar');
    expect(ar.json()).toMatchObject({ code: 'not_logged_in', message: 'أنت غير مسجّل الدخول.' });
    const en = await new TestClient(t.app).get('/api/me?l=en');
    expect(en.json()).toMatchObject({ message: 'You are not signed in.' });
    const unknown = await new TestClient(t.app).get('/api/me?l=xx');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ message: 'Vous n’êtes pas connecté.' });
    const repeated = await new TestClient(t.app).get('/api/me?l=en&l=ar');
    expect(repeated.statusCode).toBe(401);
  });

  it('accepts an unknown x-branding header (default brand)', async () => {
    const res = await new TestClient(t.app).get('/api/health', { 'x-branding': '<script>' });
    expect(res.statusCode).toBe(200);
  });

  /** Every security header a response must carry, by name (security.md "Requests"). */
  function expectSecurityHeaders(headers: Record<string, unknown>) {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=()');
    expect(headers['cache-control']).toBe('no-store');
    // Over plain HTTP (this app's PUBLIC_URL): no HSTS; over HTTPS below.
    expect(headers['strict-transport-security']).toBeUndefined();
  }

  it('sets the security headers', async () => {
    const res = await new TestClient(t.app).get('/api/health');
    expect(res.statusCode).toBe(200);
    expectSecurityHeaders(res.headers);
  });

  it('sets them on refusals too', async () => {
    const res = await new TestClient(t.app).get('/api/me');
    expect(res.statusCode).toBe(401);
    expectSecurityHeaders(res.headers);
  });

  it('sets them on an unknown API route, and on a signed-in answer', async () => {
    const unknown = await new TestClient(t.app).get('/api/nothing-here');
    expect(unknown.statusCode).toBe(404);
    expectSecurityHeaders(unknown.headers);
    const client = new TestClient(t.app);
    expect((await signIn(t, client)).statusCode).toBe(200);
    const me = await client.get('/api/me');
    expect(me.statusCode).toBe(200);
    expectSecurityHeaders(me.headers);
    // The HEAD route Fastify adds beside each GET carries them as well.
    const head = await new TestClient(t.app).request({ method: 'HEAD', url: '/api/health' });
    expect(head.statusCode).toBe(200);
    expectSecurityHeaders(head.headers);
  });

  it('keeps the cache policy a route chose, and no-store stays off pages outside the API', async () => {
    const client = new TestClient(t.app);
    const ui = await client.get('/api/docs/');
    // The docs page keeps its own CSP (hashes of its bootstrap), which still forbids framing.
    expect(String(ui.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(ui.headers['x-frame-options']).toBe('DENY');
    const discovery = await client.get('/.well-known/openid-configuration');
    expect(discovery.statusCode).toBe(308);
    expect(discovery.headers['cache-control']).toBeUndefined();
    expect(discovery.headers['x-content-type-options']).toBe('nosniff');
  });

  it('hands out an anti-forgery cookie readable by the SPA', async () => {
    const res = await new TestClient(t.app).get('/api/health');
    const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(xsrf).toBeDefined();
    expect(xsrf?.httpOnly).toBeFalsy();
    expect(xsrf?.sameSite).toBe('Lax');
  });

  it('a GET leaves a token of the right kind alone and replaces one of the wrong kind', async () => {
    const client = new TestClient(t.app);
    const first = (await client.get('/api/health')).cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(first?.value).toContain('.');
    // Before sign-in an anonymous token (nonce.signature) fits: nothing new is handed out.
    const again = await client.get('/api/health');
    expect(again.cookies.find((c) => c.name === 'XSRF-TOKEN')).toBeUndefined();
    // A session cookie with an anonymous token: the session-bound kind is handed out.
    client.cookies.set('hygie_session', 'not-a-live-session');
    const bound = (await client.get('/api/health')).cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(bound?.value).toBeDefined();
    expect(bound?.value).not.toContain('.');
  });

  it('an unsafe request refused for its token hands out a fresh one, which the retry passes', async () => {
    const client = new TestClient(t.app);
    await client.get('/api/health');
    client.cookies.set('XSRF-TOKEN', 'forged.token');
    const refused = await client.post('/api/login', {
      username: 'nobody@hygie.test',
      password: 'x',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'csrf_token_invalid' });
    const fresh = refused.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe('forged.token');
    const retried = await client.post('/api/login', {
      username: 'nobody@hygie.test',
      password: 'x',
    });
    expect(retried.json<{ code?: string }>().code).not.toBe('csrf_token_invalid');
  });

  it('reports health and readiness, and 503 while the database is away', async () => {
    const client = new TestClient(t.app);
    expect((await client.get('/api/health')).json()).toEqual({ status: 'ok' });
    expect((await client.get('/api/ready')).json()).toEqual({ status: 'ok' });
    const other = await createTestApp(dialect);
    await other.ctx.database.close();
    const res = await new TestClient(other.app).get('/api/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
    // its database is already closed; close() must still tear the app down
    await other.app.close().catch(() => {});
  });

  it('publishes the OpenAPI document and its UI', async () => {
    const client = new TestClient(t.app);
    const doc = await client.get('/api/openapi.json');
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/login', '/api/me', '/api/logout', '/api/ready']),
    );
    // One error contract: every route's error responses point at the catalogue's envelope, whose
    // variants carry each code's data.
    const json = doc.json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { oneOf?: unknown[] }> };
    }>();
    expect(json.paths['/api/login']?.post?.responses['429']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    });
    expect(json.components.schemas.ErrorEnvelope?.oneOf).toContainEqual(
      expect.objectContaining({
        properties: expect.objectContaining({
          code: { type: 'string', enum: ['wait_before_retry'] },
          data: expect.objectContaining({ required: ['retryAfterSeconds'] }),
        }),
        required: ['code', 'message', 'data'],
      }),
    );
    const ui = await client.get('/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('serves the public client configuration', async () => {
    const res = await new TestClient(t.app).get('/api/config');
    expect(res.json()).toEqual({
      release: '1.4.2',
      sentryDsn: null,
      sentryEnvironment: 'production',
      xsrfCookieName: 'XSRF-TOKEN',
      contactEmail: 'support@hygie.local',
      sessionWarningSeconds: 300,
      identityProviders: [],
    });
  });
});

describe('over HTTPS', () => {
  it('uses __Host- and Secure cookies and sends HSTS', async () => {
    const t = await createTestApp('sqlite', { env: { PUBLIC_URL: 'https://portal.example.fr' } });
    try {
      const client = new TestClient(t.app);
      const res = await client.get('/api/health');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.secure).toBe(true);
      client.cookies.set(
        'XSRF-TOKEN',
        res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '',
      );
      const login = await client.login();
      const session = login.cookies.find((c) => c.name === '__Host-hygie_session');
      expect(session).toMatchObject({ secure: true, httpOnly: true, path: '/' });
    } finally {
      await t.close();
    }
  });
});
