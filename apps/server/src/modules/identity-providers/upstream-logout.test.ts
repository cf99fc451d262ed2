// Signing out of the portal also ends the session at the upstream provider the portal session was
// opened through (OpenID Connect RP-Initiated Logout, issue #16): mock providers built with
// oidc-provider, driven request by request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, TestClient } from '../../test/helpers.js';
import { Browser } from '../oidc/test-support.js';
import { installDataKeys } from '../../security/field-crypto.js';
import { TEST_KEYRING } from '../../test/data-keys.js';
import { checkDataKeyRotation, rotateDataKey } from '../users/key-rotation.js';
import { linkIdentity } from './service.js';
import { forgetConfiguration } from './upstream.js';
import type { MockProvider } from './test-support.js';
import {
  franceConnectClaims,
  PORTAL,
  linkedProfessional,
  providerEnv,
  startMockProvider,
} from './test-support.js';

const LOGIN = `${PORTAL}/security/login`;
const FC_LOGGED_OUT = `${PORTAL}/api/idp/franceconnect/logged-out`;

/** The payload of a JWT (not verified: the test only reads what the portal sent). */
function payloadOf(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1] ?? '';
  const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return typeof payload === 'object' && payload !== null ? { ...payload } : {};
}

describe.each(DIALECTS)('logout at the upstream provider (%s)', (dialect) => {
  let t: TestApp;
  // Pro Santé Connect here has no end_session_endpoint; FranceConnect has one.
  let psc: MockProvider;
  let fc: MockProvider;
  let userId: string;

  beforeAll(async () => {
    psc = await startMockProvider('psc', `${PORTAL}/api/idp/psc/callback`, { endSession: false });
    fc = await startMockProvider('franceconnect', `${PORTAL}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: {
        ...providerEnv('PSC', psc),
        ...providerEnv('FRANCECONNECT', fc),
        FRANCECONNECT_ACR_VALUES: 'eidas2',
        IDP_TIMEOUT_MS: '1000',
      },
    });
    userId = await linkedProfessional(t, psc, {
      email: 'logout.upstream@hygie.test',
      password: 'Idp-Passw0rd-1',
      phone: '+33612345679',
      subject: 'psc-logout',
    });
    fc.accounts.set('fc-logout', franceConnectClaims());
    await linkIdentity(t.ctx, 'franceconnect', 'fc-logout', userId);
  });

  afterAll(async () => {
    await t.close();
    await psc.close();
    await fc.close();
  });

  /**
   * Starts a sign-in at the portal and follows the browser at the provider (`atProvider` keeps
   * the provider's cookies: its own session) back to the portal's callback. `asked`: whether the
   * provider asked who signs in (its interaction) rather than reuse its own session.
   */
  async function startAtProvider(
    client: TestClient,
    provider: 'psc' | 'franceconnect',
    atProvider: Browser,
  ): Promise<{ callback: string; asked: boolean }> {
    const start = await client.get(`/api/idp/${provider}/start`);
    expect(start.statusCode).toBe(302);
    let location = String(start.headers.location);
    let asked = false;
    for (let hop = 0; hop < 10 && !location.startsWith(PORTAL); hop++) {
      if (new URL(location).pathname.startsWith('/interaction/')) asked = true;
      const res = await atProvider.get(location);
      location = new URL(res.headers.get('location') ?? '', res.url).href;
    }
    return { callback: location, asked };
  }

  /** Signs in with the provider (a linked identity), through to the portal's callback. */
  async function signInWith(
    provider: 'psc' | 'franceconnect',
    acr: string,
  ): Promise<{ client: TestClient; atProvider: Browser }> {
    const mock = provider === 'psc' ? psc : fc;
    mock.nextLogin = { subject: provider === 'psc' ? 'psc-logout' : 'fc-logout', acr };
    const client = new TestClient(t.app);
    const atProvider = new Browser();
    const { callback } = await startAtProvider(client, provider, atProvider);
    expect(callback.startsWith(`${PORTAL}/api/idp/${provider}/callback?`)).toBe(true);
    const res = await client.get(callback.slice(PORTAL.length));
    expect(res.statusCode).toBe(303);
    return { client, atProvider };
  }

  /** The provider's logout page, confirmed: where the provider sends the browser back. */
  async function logoutAtProvider(atProvider: Browser, url: string): Promise<URL> {
    const page = await atProvider.get(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const form: Record<string, string> = {};
    for (const [, name = '', value = ''] of html.matchAll(/name="([^"]+)" value="([^"]*)"/g)) {
      form[name] = value;
    }
    expect(form.logout).toBe('yes');
    const confirmed = await atProvider.postForm(new URL(action, url).href, form);
    expect(confirmed.status).toBe(303);
    return new URL(confirmed.headers.get('location') ?? '', url);
  }

  it("sends the browser to the provider's end_session_endpoint with id_token_hint, state and post_logout_redirect_uri", async () => {
    const { client } = await signInWith('franceconnect', 'eidas2');
    expect((await client.get('/api/me')).statusCode).toBe(200);

    const res = await client.get('/api/logout');
    expect(res.statusCode).toBe(303);
    const url = new URL(String(res.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(`${fc.issuer}/session/end`);
    expect(url.searchParams.get('client_id')).toBe(fc.clientId);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(FC_LOGGED_OUT);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The ID token the provider gave at this sign-in.
    const hint = payloadOf(url.searchParams.get('id_token_hint') ?? '');
    expect(hint).toMatchObject({ iss: fc.issuer, aud: fc.clientId, sub: 'fc-logout' });
    // Signed out of the portal already, whatever the provider does next.
    expect(client.cookies.has('hygie_session')).toBe(false);
    expect((await client.get('/api/me')).statusCode).toBe(401);
    // The way back is sealed in an HttpOnly cookie: the state cannot be read in it.
    const cookie = res.cookies.find((c) => c.name === 'hygie_idp_logout');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 300 });
    expect(cookie?.value).not.toContain(url.searchParams.get('state'));
  });

  it('keeps the ID token sealed with the data key in the session row', async () => {
    const { client } = await signInWith('franceconnect', 'eidas2');
    const row = await t.ctx.db
      .selectFrom('sessions')
      .select(['upstream_provider', 'upstream_id_token'])
      .where('user_id', '=', userId)
      .where('upstream_provider', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(row.upstream_provider).toBe('franceconnect');
    expect(row.upstream_id_token).toMatch(/^v1\.[A-Za-z0-9]+\./);
    const logout = await client.get('/api/logout');
    const hint = new URL(String(logout.headers.location)).searchParams.get('id_token_hint');
    expect(hint).toMatch(/^ey/);
    expect(row.upstream_id_token).not.toContain(hint?.split('.')[1] ?? '-');
  });

  it("ends the provider's session, and comes back through logged-out to the portal's target, once", async () => {
    const { client, atProvider } = await signInWith('franceconnect', 'eidas2');
    // The control: while the provider's session lives, a new start signs in without a form.
    const sso = await startAtProvider(new TestClient(t.app), 'franceconnect', atProvider);
    expect(sso.asked).toBe(false);
    expect(sso.callback.startsWith(`${PORTAL}/api/idp/franceconnect/callback?`)).toBe(true);

    const res = await client.get('/api/logout?target_uri=%2Fsecurity%2Flogin%3Fbye%3D1');
    const state = new URL(String(res.headers.location)).searchParams.get('state');
    const back = await logoutAtProvider(atProvider, String(res.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(FC_LOGGED_OUT);
    expect(back.searchParams.get('state')).toBe(state);

    const landed = await client.get(`${back.pathname}${back.search}`);
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toBe(`${PORTAL}/security/login?bye=1`);
    expect(client.cookies.has('hygie_idp_logout')).toBe(false);
    // Replayed: the handoff is gone, the sign-in page and nothing else.
    const replayed = await client.get(`${back.pathname}${back.search}`);
    expect(replayed.headers.location).toBe(LOGIN);

    // The provider's session is over: a new start meets its sign-in page again.
    const again = await startAtProvider(new TestClient(t.app), 'franceconnect', atProvider);
    expect(again.asked).toBe(true);
  });

  it('ends a session still at a stage (the portal second factor pending) at the provider too', async () => {
    const { client } = await signInWith('franceconnect', 'eidas1');
    const me = await client.get('/api/me');
    expect(me.json<{ code: string }>().code).toBe('two_factor_authentication_required');
    const res = await client.get('/api/logout');
    expect(String(res.headers.location).startsWith(`${fc.issuer}/session/end?`)).toBe(true);
  });

  it("sends a forged, another provider's or a stale return to the sign-in page only", async () => {
    const { client } = await signInWith('franceconnect', 'eidas2');
    const res = await client.get('/api/logout?target_uri=%2Fdevices');
    const state = new URL(String(res.headers.location)).searchParams.get('state') ?? '';
    const sealed = client.cookies.get('hygie_idp_logout') ?? '';

    const forged = await client.get('/api/idp/franceconnect/logged-out?state=not-the-state');
    expect(forged.headers.location).toBe(LOGIN);

    client.cookies.set('hygie_idp_logout', sealed);
    const other = await client.get(`/api/idp/psc/logged-out?state=${state}`);
    expect(other.headers.location).toBe(LOGIN);

    client.cookies.set('hygie_idp_logout', sealed);
    t.clock.advance(6 * 60_000);
    const stale = await client.get(`/api/idp/franceconnect/logged-out?state=${state}`);
    expect(stale.headers.location).toBe(LOGIN);

    // Without a handoff at all (another browser): the sign-in page.
    const stranger = await new TestClient(t.app).get(
      `/api/idp/franceconnect/logged-out?state=${state}`,
    );
    expect(stranger.statusCode).toBe(303);
    expect(stranger.headers.location).toBe(LOGIN);
  });

  it('goes straight to the target for a provider without end_session_endpoint', async () => {
    const { client } = await signInWith('psc', 'eidas1');
    expect((await client.get('/api/me')).statusCode).toBe(200);
    const res = await client.get('/api/logout?target_uri=%2Fdevices');
    expect(res.headers.location).toBe(`${PORTAL}/devices`);
    expect(res.cookies.some((c) => c.name === 'hygie_idp_logout')).toBe(false);
    expect((await client.get('/api/me')).statusCode).toBe(401);
  });

  it('goes straight to the target for a password session, and for an expired one', async () => {
    const password = new TestClient(t.app);
    await password.login('logout.upstream@hygie.test', 'Idp-Passw0rd-1');
    const res = await password.get('/api/logout');
    expect(res.headers.location).toBe(LOGIN);

    // Ended otherwise (here the idle time-out): its ID token went with it.
    const { client } = await signInWith('franceconnect', 'eidas2');
    t.clock.advance(31 * 60_000);
    const expired = await client.get('/api/logout');
    expect(expired.headers.location).toBe(LOGIN);
  });

  it('has its ID token re-sealed by data:rotate-key, and still signs out at the provider', async () => {
    const { client } = await signInWith('franceconnect', 'eidas2');
    const sealedUnder = async () =>
      (
        await t.ctx.db
          .selectFrom('sessions')
          .select('upstream_id_token')
          .where('user_id', '=', userId)
          .where('upstream_id_token', 'is not', null)
          .execute()
      ).map((row) => (row.upstream_id_token ?? '').split('.')[1]);
    expect(new Set(await sealedUnder())).toEqual(new Set(['t1']));
    // The nodes restarted with a new data key first, the old one after it.
    installDataKeys({
      keys: [{ id: 't2', key: Buffer.alloc(32, 11) }, ...TEST_KEYRING.keys],
      index: TEST_KEYRING.index,
    });
    try {
      expect((await checkDataKeyRotation(t.ctx)).remaining).toBeGreaterThan(0);
      const rotation = await rotateDataKey(t.ctx);
      expect(rotation.remaining).toBe(0);
      expect(new Set(await sealedUnder())).toEqual(new Set(['t2']));
      const res = await client.get('/api/logout');
      const hint = new URL(String(res.headers.location)).searchParams.get('id_token_hint');
      expect(payloadOf(hint ?? '')).toMatchObject({ iss: fc.issuer, sub: 'fc-logout' });
    } finally {
      // Back to the suite's key: every value rotated to t2 is rotated back before t2 goes.
      installDataKeys({
        keys: [...TEST_KEYRING.keys, { id: 't2', key: Buffer.alloc(32, 11) }],
        index: TEST_KEYRING.index,
      });
      await rotateDataKey(t.ctx);
      installDataKeys(TEST_KEYRING);
    }
  });

  it('completes the portal logout when the provider cannot be reached', async () => {
    const { client } = await signInWith('franceconnect', 'eidas2');
    // Another node, or the metadata expired: the logout asks the provider, which is down.
    forgetConfiguration(t.ctx, 'franceconnect');
    fc.down = true;
    try {
      const began = Date.now();
      const res = await client.get('/api/logout?target_uri=%2Fdevices');
      expect(Date.now() - began).toBeLessThan(3000);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`${PORTAL}/devices`);
      expect((await client.get('/api/me')).statusCode).toBe(401);
    } finally {
      fc.down = false;
    }
  });
});
