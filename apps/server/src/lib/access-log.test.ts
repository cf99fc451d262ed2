import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.js';
import type { Lifecycle } from '../lifecycle.js';
import { openTestDatabase, testConfig, TestClient } from '../test/helpers.js';

const logEntry = z.record(z.string(), z.unknown());
const METRICS_TOKEN = 'metrics-token-of-the-access-log-test';

/** The access lines among the entries: [url, status, level]. */
const accessLines = (entries: Record<string, unknown>[]) =>
  entries
    .filter((entry) => entry.msg === 'request completed')
    .map((entry) => [
      z.object({ url: z.string() }).parse(entry.req).url,
      z.object({ statusCode: z.number() }).parse(entry.res).statusCode,
      entry.level,
    ]);

// One access line per request (lib/access-log.ts): what an operator reads of each request, and
// the arrival only at debug.
async function logOf(
  level: 'info' | 'debug',
  requests: (client: TestClient, lifecycle: Lifecycle) => Promise<unknown>,
) {
  const lines: string[] = [];
  const { handle, drop } = await openTestDatabase('sqlite');
  const built = await buildApp(testConfig({ LOG_LEVEL: level, METRICS_TOKEN }), {
    database: handle,
    logger: { stream: { write: (line: string) => lines.push(line) } },
  });
  try {
    await requests(new TestClient(built.app), built.lifecycle);
  } finally {
    await built.app.close();
    await drop();
  }
  return lines.map((line) => logEntry.parse(JSON.parse(line)));
}

describe('the access log', () => {
  it('writes one line per request at info: request, status, time, under its request id', async () => {
    const ids: string[] = [];
    const entries = await logOf('info', async (client) => {
      for (const url of ['/api/cgu', '/api/nowhere?token=T-SECRET', '/api/me']) {
        const res = await client.get(url, { 'x-request-id': `acces-${ids.length + 1}` });
        ids.push(String(res.headers['x-request-id']));
      }
    });
    const requestLines = entries.filter((entry) => 'req' in entry || 'res' in entry);
    expect(requestLines.map((entry) => entry.msg)).toEqual([
      'request completed',
      'request completed',
      'request completed',
    ]);
    expect(requestLines.map((entry) => entry.requestId)).toEqual(ids);
    expect(requestLines.map((entry) => entry.req)).toEqual([
      { method: 'GET', url: '/api/cgu', remoteAddress: '127.0.0.1' },
      { method: 'GET', url: '/api/nowhere?token=…', remoteAddress: '127.0.0.1' },
      { method: 'GET', url: '/api/me', remoteAddress: '127.0.0.1' },
    ]);
    expect(requestLines.map((entry) => entry.res)).toEqual([
      { statusCode: 200 },
      { statusCode: 404 },
      { statusCode: 401 },
    ]);
    for (const entry of requestLines) expect(entry.responseTime).toEqual(expect.any(Number));
    expect(JSON.stringify(entries)).not.toContain('T-SECRET');
  });

  it("keeps a probe's passing answers out of the info lines, and logs the failing ones", async () => {
    const entries = await logOf('info', async (client, lifecycle) => {
      const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };
      expect((await client.get('/api/health')).statusCode).toBe(200);
      expect((await client.get('/api/ready')).statusCode).toBe(200);
      // Some load balancers probe with HEAD: Fastify's HEAD route keeps the GET's options.
      expect((await client.request({ method: 'HEAD', url: '/api/ready' })).statusCode).toBe(200);
      expect((await client.get('/metrics', bearer)).statusCode).toBe(200);
      // A scrape without the token, and a draining node's readiness: lines an operator reads.
      expect((await client.get('/metrics')).statusCode).toBe(401);
      lifecycle.draining = true;
      expect((await client.get('/api/ready')).statusCode).toBe(503);
      expect((await client.get('/api/health')).statusCode).toBe(200);
    });
    expect(accessLines(entries)).toEqual([
      ['/metrics', 401, 30],
      ['/api/ready', 503, 30],
    ]);
  });

  it("writes a probe's passing answers at debug", async () => {
    const entries = await logOf('debug', async (client) => {
      await client.get('/api/ready');
      await client.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    });
    expect(accessLines(entries)).toEqual([
      ['/api/ready', 200, 20],
      ['/metrics', 200, 20],
    ]);
  });

  it('adds the arrival at debug, for a request that never answers', async () => {
    const entries = await logOf('debug', (client) => client.get('/api/cgu'));
    expect(
      entries.filter((entry) => 'req' in entry).map((entry) => [entry.msg, entry.level]),
    ).toEqual([
      ['incoming request', 20],
      ['request completed', 30],
    ]);
  });
});
