import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMessage } from '../messaging/outbox.js';
import type { TestApp } from '../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  DIALECTS,
  lastCode,
  readyClients,
  TestClient,
} from '../test/helpers.js';

const TOKEN = 'scraper-token-0123456789abcdef';

/** One sample's value from the Prometheus text format, or undefined when absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(DIALECTS)('metrics on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  async function scrape(): Promise<string> {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  }

  it('answers only the scraper holding the token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', TOKEN]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toMatchObject({ code: 'not_logged_in' });
      expect(res.body).not.toContain('hygie_');
    }
  });

  it('counts sign-ins and second factors by outcome, and times requests by route', async () => {
    const client = new TestClient(t.app);
    await client.login(ADMIN.email, 'Wrong-Passw0rd!');
    await client.login(ADMIN.email, ADMIN.password);
    await client.post('/api/mfa/send', { provider: 'email' });
    await client.post('/api/mfa/verify', { provider: 'email', code: '000000' });
    await client.post('/api/mfa/verify', {
      provider: 'email',
      code: await lastCode(t, ADMIN.email),
    });
    const text = await scrape();
    expect(sample(text, 'hygie_sign_ins_total', { outcome: 'bad_credentials' })).toBe(1);
    expect(sample(text, 'hygie_sign_ins_total', { outcome: 'ok' })).toBe(1);
    expect(sample(text, 'hygie_second_factors_total', { channel: 'email', outcome: 'sent' })).toBe(
      1,
    );
    expect(
      sample(text, 'hygie_second_factors_total', { channel: 'email', outcome: 'wrong_code' }),
    ).toBe(1);
    expect(
      sample(text, 'hygie_second_factors_total', { channel: 'email', outcome: 'passed' }),
    ).toBe(1);
    // By the route's pattern, never the raw address: the wrong password and the right one (its
    // second factor pending) both answered 401.
    expect(
      sample(text, 'hygie_http_request_duration_seconds_count', {
        route: '/api/login',
        method: 'POST',
        status: '401',
      }),
    ).toBe(2);
    await t.app.inject({ method: 'GET', url: '/api/platforms/by-client/some-client-id' });
    expect(await scrape()).toContain('route="/api/platforms/by-client/:clientId"');
    // The process's own: event-loop lag, memory.
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toEqual(expect.any(Number));
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('shows the outbox: pending messages by channel and the oldest one’s age', async () => {
    await t.ctx.db.deleteFrom('outbox').execute();
    await enqueueMessage(t.ctx.db, t.clock, {
      channel: 'sms',
      recipient: '+33612345678',
      template: 'mfa_code',
      language: 'fr',
      brand: 'hygie',
      params: { code: '123456' },
    });
    t.clock.advance(90_000);
    const text = await scrape();
    expect(sample(text, 'hygie_outbox_pending', { channel: 'sms' })).toBe(1);
    expect(sample(text, 'hygie_outbox_pending', { channel: 'email' })).toBe(0);
    expect(sample(text, 'hygie_outbox_oldest_pending_age_seconds', { channel: 'sms' })).toBe(90);
    if (dialect === 'postgres') {
      expect(sample(text, 'hygie_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(sample(text, 'hygie_db_pool_connections', { state: 'total' })).toBeUndefined();
    }
  });
});

describe('metrics without a token configured', () => {
  it('are not served: /metrics and what looks like it answer a JSON 404, never the web page', async () => {
    const t = await createTestApp('sqlite');
    try {
      for (const url of ['/metrics', '/metrics/', '/metrics?x=1']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
    } finally {
      await t.close();
    }
  });
});

describe('the password hashing gauge', () => {
  it('shows a burst of sign-ins from one address: one hashing, some under way, the rest waiting their turn; then none', async () => {
    // One worker and slow hashes: the burst stays long enough to be scraped.
    const t = await createTestApp('sqlite', {
      env: { METRICS_TOKEN: TOKEN, HASH_CONCURRENCY: '1', ARGON2_TIME_COST: '12' },
    });
    const scrape = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).body;
    const hashing = (text: string) =>
      Object.fromEntries(
        ['running', 'waiting', 'admitted', 'waiting_turn'].map((state) => [
          state,
          sample(text, 'hygie_password_hashing', { state }),
        ]),
      );
    try {
      expect(hashing(await scrape())).toEqual({
        running: 0,
        waiting: 0,
        admitted: 0,
        waiting_turn: 0,
      });
      const clients = await readyClients(t, 8);
      const burst = clients.map((client, i) =>
        client.request({
          method: 'POST',
          url: '/api/login',
          payload: { username: `nobody${i}@hygie.test`, password: 'Wrong-Passw0rd-1' },
          remoteAddress: '203.0.113.7',
        }),
      );
      // Scraped until the burst is done. Eight from one address on one worker: one hashing, at
      // most two under way beside it (their hash waiting, or reading), the others waiting their turn.
      let done = false;
      const answered = Promise.all(burst).finally(() => (done = true));
      const seen: Record<string, number | undefined>[] = [];
      const deadline = Date.now() + 20_000;
      while (!done && Date.now() < deadline) {
        seen.push(hashing(await scrape()));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect((await answered).map((r) => r.statusCode)).toEqual(Array(8).fill(401));
      expect(seen.some((s) => s.running === 1 && (s.waiting_turn ?? 0) >= 3)).toBe(true);
      for (const s of seen) {
        expect(s.running).toBeLessThanOrEqual(1);
        expect(s.admitted).toBeLessThanOrEqual(2);
        expect((s.running ?? 0) + (s.admitted ?? 0) + (s.waiting_turn ?? 0)).toBeLessThanOrEqual(8);
      }
      expect(hashing(await scrape())).toEqual({
        running: 0,
        waiting: 0,
        admitted: 0,
        waiting_turn: 0,
      });
    } finally {
      await t.close();
    }
  });
});
