import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, TestClient } from '../test/helpers.js';

// security.md: bad input of every kind gets a 4xx with an error code — never a 500, never a stack trace.
describe('fuzzed input', () => {
  let t: TestApp;
  let client: TestClient;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    client = new TestClient(t.app);
    await client.get('/api/health');
  });
  afterAll(() => t.close());

  function expectClientError(res: { statusCode: number; body: string }) {
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const body: unknown = JSON.parse(res.body);
    expect(body).toMatchObject({ code: expect.any(String) });
    expect(res.body).not.toMatch(/\bat .+\.(js|ts):\d+/);
  }

  it('answers any JSON body on login with a 4xx and a code', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            username: fc.jsonValue(),
            password: fc.jsonValue(),
            trustDevice: fc.jsonValue(),
          }),
          fc.record({ username: fc.string(), password: fc.string({ maxLength: 200 }) }),
        ),
        async (body) => {
          const res = await client.request({
            method: 'POST',
            url: '/api/login',
            payload: JSON.stringify(body),
            headers: { 'content-type': 'application/json' },
          });
          expectClientError(res);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers arbitrary bytes with a 4xx and a code', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom(
          'application/json',
          'application/json; charset=latin1',
          'application/octet-stream',
          'multipart/form-data',
        ),
        async (bytes, type) => {
          const res = await client.request({
            method: 'POST',
            url: '/api/login',
            payload: Buffer.from(bytes),
            headers: { 'content-type': type },
          });
          expectClientError(res);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers arbitrary query strings and headers without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 60 }),
        fc.string({ maxLength: 60 }),
        fc.constantFrom('/api/me', '/api/logout', '/api/dev/outbox', '/api/health', '/api/config'),
        async (query, header, path) => {
          const printable = header.replace(/[^\x20-\x7e]/g, '');
          const q = encodeURIComponent(query);
          const res = await client.request({
            method: 'GET',
            url: `${path}?l=${q}&target_uri=${q}&to=${q}&limit=${q}`,
            headers: {
              'x-branding': printable,
              'accept-language': printable,
              cookie: `hygie_session=${q}; XSRF-TOKEN=${q}`,
            },
          });
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
