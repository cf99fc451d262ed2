import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import type { TestApp } from '../../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, TestClient } from '../../test/helpers.js';

const DELIVERY = { SMTP_URL: 'smtp://127.0.0.1:1', SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms' };

describe('the test clock setting', () => {
  it.each([
    [{ HYGIE_TEST_CLOCK: '1' }],
    [{ HYGIE_TEST_CLOCK: '1', NODE_ENV: 'development' }],
    [{ HYGIE_TEST_CLOCK: 'true', NODE_ENV: 'production', ...DELIVERY }],
  ])('is refused outside NODE_ENV=test: %j', (env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow('HYGIE_TEST_CLOCK needs NODE_ENV=test');
  });

  it('is off unless asked for', () => {
    expect(loadConfig({}).testClock).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).testClock).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', HYGIE_TEST_CLOCK: '1' }).testClock).toBe(true);
  });
});

describe.each([
  ['development', { NODE_ENV: 'development' }],
  ['production', { NODE_ENV: 'production', ...DELIVERY }],
  ['test without HYGIE_TEST_CLOCK', { NODE_ENV: 'test' }],
])('the test clock endpoint in %s', (_name, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env });
  });
  afterAll(() => t.close());

  it('does not exist (404 not_found), to read or to move', async () => {
    const client = new TestClient(t.app);
    const read = await client.get('/api/test/clock');
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ code: 'not_found' });
    const before = t.ctx.clock.now();
    const move = await client.post('/api/test/clock', { advanceSeconds: 3600 });
    expect(move.statusCode).toBe(404);
    expect(move.json()).toMatchObject({ code: 'not_found' });
    expect(t.ctx.clock.now()).toBe(before);
  });
});

describe.each(DIALECTS)('the test clock endpoint when enabled, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { HYGIE_TEST_CLOCK: '1' } });
  });
  afterAll(() => t.close());

  it('reads the server time and moves it forward, never back', async () => {
    const client = new TestClient(t.app);
    const read = await client.get('/api/test/clock');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ now: t.clock.now(), offsetSeconds: 0 });

    const moved = await client.post('/api/test/clock', { advanceSeconds: 90 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ now: t.clock.now() + 90_000, offsetSeconds: 90 });
    expect(t.ctx.clock.now()).toBe(t.clock.now() + 90_000);

    const back = await client.post('/api/test/clock', { advanceSeconds: -10 });
    expect(back.statusCode).toBe(400);
    expect((await client.get('/api/test/clock')).json()).toMatchObject({ offsetSeconds: 90 });
  });

  it('lets a code resend cooldown pass without waiting', async () => {
    const client = new TestClient(t.app);
    const login = await client.login(ADMIN.email, ADMIN.password);
    expect(login.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    expect((await client.post('/api/mfa/send', { provider: 'email' })).statusCode).toBe(200);

    const tooSoon = await client.post('/api/mfa/send', { provider: 'email' });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toMatchObject({ code: 'wait_before_retry' });
    const wait = Number(tooSoon.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);

    await client.post('/api/test/clock', { advanceSeconds: wait });
    expect((await client.post('/api/mfa/send', { provider: 'email' })).statusCode).toBe(200);
  });
});
