import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPool } from '../../security/hash-pool.js';
import type { TestApp } from '../../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, readyClients, TestClient } from '../../test/helpers.js';

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
    const clients = await readyClients(t, 8);
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

// docs/performance.md "Sign-in": the hashing queue serves each address in turn, so a burst of
// sign-ins from one address does not hold back another address's sign-in.
describe.each(DIALECTS)('a burst of sign-ins from one address on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // Slower hashes than the suite's, so that the burst's wait in the queue while its requests
    // are read: a password check here takes tens of milliseconds, as in production.
    t = await createTestApp(dialect, {
      env: { HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '32', ARGON2_TIME_COST: '12' },
    });
  });
  afterAll(() => t.close());

  const loginFrom = (client: TestClient, ip: string, username: string, password: string) =>
    client.request({
      method: 'POST',
      url: '/api/login',
      payload: { username, password },
      remoteAddress: ip,
    });

  it('another address’s sign-in is served in turn, not after the whole burst', async () => {
    const clients = await readyClients(t, 16);
    const other = new TestClient(t.app);
    await other.get('/api/health');
    const finished: string[] = [];
    const burst = clients.map((client, i) =>
      loginFrom(client, '203.0.113.7', `nobody${i}@hygie.test`, 'Wrong-Passw0rd-1').then((r) => {
        finished.push('burst');
        return r.statusCode;
      }),
    );
    // The burst's password steps wait for their turn, then their checks for the one worker.
    const pool = hashPool(1, 32);
    // Looked at often: the queue shrinks by one at each hash, and a host with fast hashes keeps
    // eight waiting for a few tens of milliseconds only.
    await expect
      .poll(() => pool.waiting, { timeout: 10_000, interval: 2 })
      .toBeGreaterThanOrEqual(8);
    const own = await loginFrom(other, '198.51.100.9', ADMIN.email, ADMIN.password);
    finished.push('other');
    expect(own.statusCode).not.toBe(503);
    expect(own.json<{ code?: string }>().code).not.toBe('bad_credentials');
    expect(await Promise.all(burst)).toEqual(Array(16).fill(401));
    // Served first come, first served, it would have finished after all sixteen; served in turn,
    // it finished with most of the burst still waiting.
    expect(finished.slice(finished.indexOf('other') + 1).length).toBeGreaterThanOrEqual(4);
  });

  it('a burst’s password steps are let in at the pace of their hashes, not all at once', async () => {
    const clients = await readyClients(t, 6);
    // The hashes sent to the pool and not yet answered: each was sent once its step had read the
    // account, its counters and reserved its attempt.
    const pool = hashPool(1, 32);
    const run = pool.run.bind(pool);
    let outstanding = 0;
    let most = 0;
    const spy = vi.spyOn(pool, 'run').mockImplementation((job, address, admission) => {
      outstanding++;
      most = Math.max(most, outstanding);
      return run(job, address, admission).finally(() => outstanding--);
    });
    try {
      const statuses = await Promise.all(
        clients.map((client, i) =>
          loginFrom(client, '203.0.113.7', `nobody${i}@hygie.test`, 'Wrong-Passw0rd-1').then(
            (r) => r.statusCode,
          ),
        ),
      );
      expect(statuses).toEqual(Array(6).fill(401));
    } finally {
      spy.mockRestore();
    }
    // One worker: one hash running and two steps let in beside it (reading, or their hash
    // waiting), never the six at once.
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThanOrEqual(2);
  });
});
