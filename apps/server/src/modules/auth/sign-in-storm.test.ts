import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, TestClient } from '../../test/helpers.js';

// docs/performance.md "Sign-in": one hashing worker and room for one waiting job, so a burst of
// sign-ins overflows the queue: the overflow is told to come back (503, Retry-After), never a 500,
// and the rest of the portal keeps answering meanwhile.
describe.each(DIALECTS)('a storm of sign-ins on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '1' } });
  });
  afterAll(() => t.close());

  it('past the hashing queue, a sign-in is refused with 503 and Retry-After; the rest still answers', async () => {
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new TestClient(t.app);
        await client.get('/api/health');
        return client;
      }),
    );
    const [responses, health] = await Promise.all([
      Promise.all(
        clients.map((c, i) =>
          c.login(i % 2 === 0 ? ADMIN.email : `nobody${i}@hygie.test`, 'Wrong-Passw0rd-1'),
        ),
      ),
      new TestClient(t.app).get('/api/health'),
    ]);
    expect(health.statusCode).toBe(200);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    const refused = responses.filter((r) => r.statusCode === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.headers['retry-after']).toBe('1');
      expect(r.json()).toMatchObject({ code: 'service_unavailable', message: expect.any(String) });
    }

    // Once the storm has passed, the right password signs in.
    const after = await new TestClient(t.app).login(ADMIN.email, ADMIN.password);
    expect(after.statusCode).not.toBe(503);
    expect(after.json<{ code?: string }>().code).not.toBe('invalid_credentials');
  });
});
