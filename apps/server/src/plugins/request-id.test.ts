import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, DIALECTS, signIn, TestClient } from '../test/helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const logLine = z.looseObject({ requestId: z.string().optional(), msg: z.string().optional() });

// An operator follows one request from the proxy's log to the portal's log lines and audit trail.
describe.each(DIALECTS)('request ids on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { LOG_LEVEL: 'info' },
      deps: { logger: { stream: { write: (line: string) => lines.push(line) } } },
    });
  });
  afterAll(() => t.close());

  it('answers with a new UUID when the request brings none, a different one each time', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/health' });
    const b = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('keeps a well-formed X-Request-Id from the proxy, and replaces a malformed one', async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'a1b2c3d4e5f60718293a4b5c6d7e8f90' },
    });
    expect(kept.headers['x-request-id']).toBe('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    for (const bad of ['short', 'x'.repeat(129), 'id with spaces', 'id\ninjected: line']) {
      const replaced = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': bad },
      });
      expect(replaced.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('names the request in its log lines and in the audit events it causes', async () => {
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    lines.length = 0;
    const created = await admin.request({
      method: 'POST',
      url: '/api/admin/platforms',
      payload: {
        name: 'Suivi',
        url: 'https://suivi.example',
        redirectUris: ['https://suivi.example/cb'],
      },
      headers: { 'x-request-id': 'proxy-req-0001', 'user-agent': 'OperatorBrowser/1.0' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['x-request-id']).toBe('proxy-req-0001');
    const logged = lines.map((line) => logLine.parse(JSON.parse(line)));
    // Its access line (lib/access-log.ts), and every other line it writes, carry the proxy's id.
    expect(logged.filter((l) => l.requestId === 'proxy-req-0001').map((l) => l.msg)).toContain(
      'request completed',
    );
    const event = await t.ctx.db
      .selectFrom('audit_events')
      .select(['request_id', 'user_agent'])
      .where('action', '=', 'platform_created')
      .executeTakeFirstOrThrow();
    expect(event).toEqual({ request_id: 'proxy-req-0001', user_agent: 'OperatorBrowser/1.0' });
  });

  it('gives the provider’s own answers a request id too', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      headers: { 'x-request-id': 'proxy-req-0002' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('proxy-req-0002');
  });
});
