import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { ADMIN, createTestApp, signIn, TestClient } from '../test/helpers.js';

// Attacker suite (security issue, point 14): what a shared computer, a cache or a framing page
// could keep or show of someone's session.
describe('after a sign-in on a shared computer', () => {
  let t: TestApp;
  let client: TestClient;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    client = new TestClient(t.app);
    await signIn(t, client, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  it('the session cookie ends with the browser session (no Expires, no Max-Age)', async () => {
    const res = await client.post('/api/login', {
      username: ADMIN.email,
      password: ADMIN.password,
    });
    const session = res.cookies.find((c) => c.name === 'hygie_session');
    expect(session?.value).toBeTruthy();
    expect(session?.expires).toBeUndefined();
    expect(session?.maxAge).toBeUndefined();
  });

  it.each(['/api/me', '/api/profile', '/api/devices', '/api/admin/users', '/api/nowhere'])(
    '%s is never kept by a cache',
    async (url) => {
      const res = await client.get(url);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('the API documentation page cannot be framed', async () => {
    const res = await client.get('/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
