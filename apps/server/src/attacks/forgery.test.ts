import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../app.js';
import type { TestApp } from '../test/helpers.js';
import { ADMIN, createTestApp, createUser, DIALECTS, signIn, TestClient } from '../test/helpers.js';
import { findUserById } from '../modules/users/service.js';

// Attacker suite (security issue, point 1): a forged cross-site request carries the victim's
// session cookie but cannot read the anti-forgery cookie, so it has no header. Every unsafe route of
// the route table is tried under every spelling a router may still dispatch.

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const ID = '00000000-0000-4000-8000-000000000000';

/** The path with each `:param` filled and each `*` wildcard given one segment. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, ID).replace(/\*$/, 'x');

/** Spellings of one path that a lenient router, a proxy or a decoder could take for it. */
export function pathVariants(path: string): string[] {
  const [first = '', ...rest] = path.split('/').filter(Boolean);
  const tail = rest.join('/');
  const percent = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  return [
    path,
    `/${percent(first[0] ?? 'a')}${first.slice(1)}/${tail}`,
    `/${first}/${percent(tail[0] ?? 'a')}${tail.slice(1)}`,
    `/${[...first].map(percent).join('')}/${tail}`,
    `/${first}%2F${tail}`,
    `//${first}/${tail}`,
    `/${first}//${tail}`,
    `/./${first}/${tail}`,
    `/${first}/./${tail}`,
    `/${first}/x/../${tail}`,
    `/${first}/%2e%2e/${first}/${tail}`,
    `/${first.toUpperCase()}/${tail}`,
    `/${first[0]?.toUpperCase() ?? ''}${first.slice(1)}/${tail}`,
    `${path}/`,
    `/${first};x/${tail}`,
    `${path}?x=1`,
  ];
}

describe.each(DIALECTS)('anti-forgery on every unsafe route on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  let unsafe: RouteEntry[];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
    unsafe = t.routes.filter((r) => !SAFE.has(r.method) && !r.url.startsWith('/oidc/'));
  });
  afterAll(() => t.close());

  it('knows the routes it attacks (the table is the app’s, not a copy)', () => {
    expect(unsafe.length).toBeGreaterThan(40);
    expect(unsafe).toContainEqual({ method: 'POST', url: '/api/admin/users/:id/validate' });
  });

  it('the router does decode an encoded path: the variants reach real routes', async () => {
    const res = await admin.get('/%61pi/me');
    expect(res.statusCode).toBe(200);
  });

  it('refuses every unsafe route, under every spelling, without the token', async () => {
    const accepted: string[] = [];
    let tried = 0;
    for (const route of unsafe) {
      for (const url of pathVariants(concrete(route.url))) {
        for (const body of [undefined, {}]) {
          tried += 1;
          const res = await admin.request({
            method: route.method,
            url,
            xsrf: false,
            ...(body ? { payload: body } : {}),
          });
          const { code } = res.json<{ code?: string }>();
          if (res.statusCode < 400 || (code !== 'csrf_token_invalid' && code !== 'not_found')) {
            accepted.push(
              `${route.method} ${url} ${body ? 'json' : 'bodyless'} → ${res.statusCode} ${code}`,
            );
          }
        }
      }
    }
    expect(accepted).toEqual([]);
    expect(tried).toBeGreaterThan(40 * 16 * 2);
    // The session survived the whole walk: the refusals were the check's, not a lost sign-in.
    expect((await admin.get('/api/me')).statusCode).toBe(200);
  });

  it('leaves a pending professional pending after a forged, encoded validation', async () => {
    const id = await createUser(t, {
      email: `pro-${dialect}@example.fr`,
      password: 'Sûr-et-long-2026!',
      profile: 'professional',
      status: 'pending_validation',
    });
    const res = await admin.request({
      method: 'POST',
      url: `/%61pi/admin/users/${id}/validate`,
      xsrf: false,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf_token_invalid' });
    expect((await findUserById(t.ctx.db, id))?.status).toBe('pending_validation');
  });
});
