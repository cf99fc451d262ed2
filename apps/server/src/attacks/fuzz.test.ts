import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../test/helpers.js';
import type { Probe } from './operations.js';
import { probesOf } from './operations.js';

// Attacker suite (security issue, point 13): PostgreSQL answered 500 to NUL bytes, over-long values
// and a long X-Forwarded-For (19 × 5xx in 24,000 fuzzed requests; SQLite none). Every operation of
// the route table is fed generated paths, queries, bodies and headers, from a fixed seed, as an
// admin (whose session reaches every guarded route) and anonymously: never a 5xx, and every
// refusal carries its error code. 100,000 requests per CI run, half on each database.
const SEED = 20_261_125;
const REQUESTS = 100_000;
const RUNS = Math.floor(REQUESTS / DIALECTS.length);

/** Values far over any limit, built once (generating them per request cost more than sending them). */
const OVERSIZED = [
  'x'.repeat(256),
  'x'.repeat(4_097),
  'x'.repeat(70_000),
  'é'.repeat(3_000),
  `${'é'.repeat(3_000)}\u0000`,
  '1.2.3.4, '.repeat(3_000),
];
/** Strings databases and parsers choke on, mixed with arbitrary ones. */
const hostileString = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'a\u0000b',
      '\u0000',
      '\ud800',
      '%00',
      '%',
      '../..',
      '\\',
      "'; drop table users;--",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...OVERSIZED) },
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
);

interface FuzzRequest {
  probe: number;
  admin: boolean;
  pathValues: string[];
  queryValues: string[];
  bodyValues: unknown[];
  extraKey: string;
  forwardedFor: string;
  language: string;
}

/** Percent-encodes like a client; a lone surrogate goes as the invalid UTF-8 bytes it would be. */
function encode(value: string): string {
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  return value
    .split(lone)
    .map((part) => encodeURIComponent(part))
    .join('%ED%A0%80');
}

function requestOf(probes: Probe[], r: FuzzRequest) {
  const probe = probes[r.probe % probes.length];
  if (!probe) throw new Error('no operation');
  let url = probe.path;
  probe.pathParams.forEach((name, i) => {
    url = url.replace(`{${name}}`, encode(r.pathValues[i] ?? ''));
  });
  const query = probe.query.map((name, i) => `${name}=${encode(r.queryValues[i] ?? '')}`);
  if (query.length > 0) url += `?${query.join('&')}`;
  const body: Record<string, unknown> = Object.fromEntries(
    probe.body.map((name, i) => [name, r.bodyValues[i]]),
  );
  if (r.extraKey) body[r.extraKey] = r.bodyValues[0];
  return { probe, url, body };
}

describe.each(DIALECTS)('a seeded fuzz of every operation on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  let anonymous: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    anonymous = new TestClient(t.app);
  });
  afterAll(() => t.close());

  it(`answers ${RUNS} generated requests without a 5xx, each refusal with its code`, async () => {
    // The sign-out would end the session the fuzz runs in; everything else is fair game.
    const probes = probesOf(t.app.swagger()).filter((p) => p.path !== '/api/logout');
    expect(probes.length).toBeGreaterThan(60);
    const statuses = new Map<number, number>();
    const request = fc.record<FuzzRequest>({
      probe: fc.nat(),
      admin: fc.boolean(),
      pathValues: fc.array(hostileString, { minLength: 2, maxLength: 2 }),
      queryValues: fc.array(hostileString, { minLength: 4, maxLength: 4 }),
      bodyValues: fc.array(hostileValue, { minLength: 8, maxLength: 8 }),
      extraKey: fc.oneof(
        fc.constant(''),
        fc.constantFrom('roles', '__proto__', 'status'),
        hostileString,
      ),
      forwardedFor: fc.oneof(fc.constant(''), hostileString),
      language: fc.oneof(fc.constantFrom('fr', 'en', 'ar', 'zz'), hostileString),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const { probe, url, body } = requestOf(probes, r);
        const headers: Record<string, string> = {};
        // Header values are bytes: what an HTTP client cannot send is not a request.
        if (r.forwardedFor && !/[^\t\x20-\x7e]/.test(r.forwardedFor)) {
          headers['x-forwarded-for'] = r.forwardedFor;
        }
        if (!/[^\t\x20-\x7e]/.test(r.language)) headers['accept-language'] = r.language;
        const res = await (r.admin ? admin : anonymous).request({
          method: probe.method,
          url,
          headers,
          ...(probe.method === 'GET' || probe.method === 'DELETE' ? {} : { payload: body }),
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, `${probe.method} ${url.slice(0, 200)}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.body).toMatch(/"code":"[a-z_]+"/);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The walk reached the services, not only the schema checks: some requests were accepted.
    const accepted = [...statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
    expect(accepted).toBeGreaterThan(RUNS / 100);
    expect((await admin.get('/api/me')).statusCode).toBe(200);
  }, 600_000);
});
