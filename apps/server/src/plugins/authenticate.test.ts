import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { ADMIN, createTestApp, signIn, TestClient, testConfig } from '../test/helpers.js';
import { cookiePolicy } from './cookies.js';
import { sessionGuard } from './authenticate.js';

// The guard reads the matched route's options once: its declared access and its pattern.
describe('session guard', () => {
  let t: TestApp;
  let sessionCookie: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const client = new TestClient(t.app);
    expect((await signIn(t, client)).statusCode).toBe(200);
    const policy = cookiePolicy(testConfig());
    sessionCookie = `${policy.sessionCookie}=${client.cookies.get(policy.sessionCookie) ?? ''}`;
  });
  afterAll(() => t.close());

  async function appWithRoutes() {
    const app = Fastify({ logger: false });
    await app.register(cookie);
    const guard = sessionGuard(t.ctx, cookiePolicy(testConfig()));
    app.get('/declared-public', { config: { auth: 'public' } }, async (request) => {
      await guard(request);
      return { reached: true };
    });
    app.get('/declared-session', { config: { auth: 'session' } }, async (request) => {
      const session = await guard(request);
      return { user: session.user_id };
    });
    return app;
  }

  it('refuses to serve a route declared public that requires a session, naming the route', async () => {
    const app = await appWithRoutes();
    const res = await app.inject({
      method: 'GET',
      url: '/declared-public',
      headers: { cookie: sessionCookie },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json<{ message: string }>().message).toBe(
      '/declared-public is declared public but requires a session',
    );
    await app.close();
  });

  it('gives a declared session route its session, and none without the cookie', async () => {
    const app = await appWithRoutes();
    const ok = await app.inject({
      method: 'GET',
      url: '/declared-session',
      headers: { cookie: sessionCookie },
    });
    expect(ok.statusCode).toBe(200);
    const admin = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow();
    expect(ok.json<{ user: string }>().user).toBe(admin.id);
    const anonymous = await app.inject({ method: 'GET', url: '/declared-session' });
    expect(anonymous.statusCode).not.toBe(200);
    await app.close();
  });
});
