import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  createUser,
  DIALECTS,
  signIn,
  TestClient,
} from '../../test/helpers.js';

// ANS référentiel d'identification électronique (and its 2026 revision): a sign-out after 30
// minutes of inactivity, and a session an operator can limit to 4 hours however active it is.
const USER = { email: 'soignant@hygie.test', password: 'Soignant-Passw0rd-1' };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(DIALECTS)('ANS session limits on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    await createUser(t, { ...USER, phone: '+33656000009' });
    admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
  });
  afterEach(() => t.close());

  const setting = (key: string, value: number) =>
    admin.request({ method: 'PUT', url: `/api/admin/settings/${key}`, payload: { value } });

  it('signs out after 30 minutes of inactivity by default, not before', async () => {
    const client = new TestClient(t.app);
    expect((await signIn(t, client, USER.email, USER.password)).statusCode).toBe(200);
    t.clock.advance(29 * MINUTE);
    expect((await client.get('/api/me')).statusCode).toBe(200);
    // The request above was activity: the 30 minutes start again from it.
    t.clock.advance(29 * MINUTE);
    expect((await client.get('/api/me')).statusCode).toBe(200);
    t.clock.advance(30 * MINUTE + 1000);
    expect((await client.get('/api/me')).json()).toMatchObject({ code: 'session_expired' });
  });

  it('an operator can lower the absolute lifetime to 4 hours: an active session ends then', async () => {
    expect((await setting('SESSION_ABSOLUTE_TIMEOUT', 4 * 3600)).statusCode).toBe(200);
    const client = new TestClient(t.app);
    expect((await signIn(t, client, USER.email, USER.password)).statusCode).toBe(200);
    // Busy all along: a request every 20 minutes, never idle.
    for (let elapsed = 20 * MINUTE; elapsed < 4 * HOUR; elapsed += 20 * MINUTE) {
      t.clock.advance(20 * MINUTE);
      expect((await client.get('/api/me')).statusCode).toBe(200);
    }
    t.clock.advance(20 * MINUTE);
    expect((await client.get('/api/me')).json()).toMatchObject({ code: 'session_expired' });
  });

  it('the absolute lifetime is 12 hours by default, and its bounds are the idle time-out to 30 days', async () => {
    const settings = (await admin.get('/api/admin/settings')).json<unknown>();
    expect(JSON.stringify(settings)).toContain('SESSION_ABSOLUTE_TIMEOUT');
    expect(t.ctx.config.session).toEqual({ idleSeconds: 1800, absoluteSeconds: 43200 });
    expect((await setting('SESSION_ABSOLUTE_TIMEOUT', 15 * 60 - 1)).statusCode).toBe(400);
    expect((await setting('SESSION_ABSOLUTE_TIMEOUT', 30 * 24 * 3600 + 1)).statusCode).toBe(400);
    // Never shorter than the idle time-out (30 minutes by default).
    expect((await setting('SESSION_ABSOLUTE_TIMEOUT', 15 * 60)).json()).toMatchObject({
      code: 'settings_update_failed',
      data: { key: 'SESSION_ABSOLUTE_TIMEOUT', min: 1800 },
    });
    expect((await setting('SESSION_ABSOLUTE_TIMEOUT', 1800)).statusCode).toBe(200);
  });
});
