import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { probesOf } from './operations.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../test/helpers.js';

// Attacker suite (security issue, point 13): every operation of the API document gets its inputs
// filled with what databases choke on (a NUL character, a value far over any limit). Both
// databases must answer a 4xx, never a 5xx, and the same one.
const HOSTILE = {
  nul: 'a\u0000b',
  long: 'x'.repeat(100_000),
  nulLong: `${'é'.repeat(3000)}\u0000`,
};

describe.each(DIALECTS)('hostile input on every operation on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  it('never answers a 5xx to NUL characters and oversized values; each refusal carries a code', async () => {
    // Operations without input cannot be fed anything; the sign-out (whose redirect target is
    // fuzzed by the browser-facing suites) would end the session the walk runs in.
    const probes = probesOf(t.app.swagger()).filter(
      (p) => p.inputs > 0 && p.path !== '/api/logout',
    );
    expect(probes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let tried = 0;
    for (const probe of probes) {
      for (const [kind, value] of Object.entries(HOSTILE)) {
        const encoded = encodeURIComponent(value.slice(0, 300));
        let url = probe.path;
        for (const name of probe.pathParams) url = url.replace(`{${name}}`, encoded);
        const query = probe.query.map(
          (name) => `${name}=${encodeURIComponent(value.slice(0, 3000))}`,
        );
        if (query.length > 0) url += `?${query.join('&')}`;
        const body = Object.fromEntries(probe.body.map((name) => [name, value]));
        tried += 1;
        const res = await admin.request({
          method: probe.method,
          url,
          ...(probe.body.length > 0 ? { payload: body } : {}),
        });
        const refusedWithoutCode = res.statusCode >= 400 && !/"code":"[a-z_]+"/.test(res.body);
        if (res.statusCode >= 500 || refusedWithoutCode) {
          failures.push(
            `${probe.method} ${probe.path} (${kind}) → ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBe(probes.length * Object.keys(HOSTILE).length);
    expect((await admin.get('/api/me')).statusCode).toBe(200);
  });
});
