// A sign-out a platform starts at the portal's end_session_endpoint ends the upstream provider's
// session too (issue #16), before the browser reaches the platform's post-logout URI: the portal
// listening on a real port, a platform signing in through it, a mock FranceConnect upstream.
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import {
  authorizationRequest,
  authorizeTo,
  Browser,
  freePort,
  registerPlatform,
  relyingParty,
} from '../oidc/test-support.js';
import { linkIdentity } from './service.js';
import type { MockProvider } from './test-support.js';
import { franceConnectClaims, providerEnv, startMockProvider } from './test-support.js';

describe.each(DIALECTS)('a platform-started logout at the upstream provider (%s)', (dialect) => {
  let t: TestApp;
  let base: string;
  let fc: MockProvider;
  let rp: client.Configuration;
  let callback: string;
  let signedOut: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    fc = await startMockProvider('franceconnect', `${base}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: {
        PUBLIC_URL: base,
        ...providerEnv('FRANCECONNECT', fc),
        FRANCECONNECT_ACR_VALUES: 'eidas2',
      },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    const userId = await createUser(t, {
      email: 'platform.logout@hygie.test',
      password: 'Idp-Passw0rd-1',
      phone: '+33612345680',
    });
    fc.accounts.set('fc-platform-logout', franceConnectClaims());
    await linkIdentity(t.ctx, 'franceconnect', 'fc-platform-logout', userId);
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    const platform = await registerPlatform(admin, { name: 'Agenda' });
    rp = await relyingParty(base, platform);
    callback = platform.redirectUris[0] ?? '';
    signedOut = platform.postLogoutRedirectUris[0] ?? '';
  });

  afterAll(async () => {
    await t.close();
    await fc.close();
  });

  /** Signs in at the portal through FranceConnect (eidas2: no portal second factor). */
  async function signInWithFranceConnect(browser: Browser, atProvider: Browser): Promise<void> {
    fc.nextLogin = { subject: 'fc-platform-logout', acr: 'eidas2' };
    const start = await browser.get(`${base}/api/idp/franceconnect/start`);
    let location = new URL(start.headers.get('location') ?? '', base);
    for (let hop = 0; hop < 10 && location.origin !== base; hop++) {
      const res = await atProvider.get(location.href);
      location = new URL(res.headers.get('location') ?? '', res.url);
    }
    const landed = await browser.get(location.href);
    expect(landed.status).toBe(303);
    expect((await browser.get(`${base}/api/me`)).status).toBe(200);
  }

  /** The platform's sign-in through the portal: its ID token. */
  async function platformIdToken(browser: Browser): Promise<string> {
    const start = await authorizationRequest(rp, callback, 'openid');
    const url = await authorizeTo(browser, base, start);
    const tokens = await client.authorizationCodeGrant(rp, url, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return tokens.id_token ?? '';
  }

  /** The portal's logout confirmation, confirmed: the answer to the confirmation. */
  async function confirmAtPortal(browser: Browser, end: URL): Promise<Response> {
    const html = await (await browser.get(end.href)).text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirmed = await browser.postForm(new URL(action, base).href, { xsrf, logout: 'yes' });
    expect(confirmed.status).toBe(303);
    return confirmed;
  }

  it("goes through the provider's logout, then on to the platform's post-logout URI with its state", async () => {
    const browser = new Browser();
    const atProvider = new Browser();
    await signInWithFranceConnect(browser, atProvider);
    const idToken = await platformIdToken(browser);

    const end = client.buildEndSessionUrl(rp, {
      id_token_hint: idToken,
      post_logout_redirect_uri: signedOut,
      state: 'platform-state',
    });
    const confirmed = await confirmAtPortal(browser, end);
    const toProvider = new URL(confirmed.headers.get('location') ?? '');
    expect(`${toProvider.origin}${toProvider.pathname}`).toBe(`${fc.issuer}/session/end`);
    expect(toProvider.searchParams.get('post_logout_redirect_uri')).toBe(
      `${base}/api/idp/franceconnect/logged-out`,
    );
    // Signed out of the portal already.
    expect((await browser.get(`${base}/api/me`)).status).toBe(401);

    // The provider's logout page confirms itself and sends the browser back to the portal.
    const page = await atProvider.get(toProvider.href);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const form: Record<string, string> = {};
    for (const [, name = '', value = ''] of html.matchAll(/name="([^"]+)" value="([^"]*)"/g)) {
      form[name] = value;
    }
    const atProviderDone = await atProvider.postForm(new URL(action, toProvider).href, form);
    const back = new URL(atProviderDone.headers.get('location') ?? '', toProvider);
    expect(`${back.origin}${back.pathname}`).toBe(`${base}/api/idp/franceconnect/logged-out`);

    const landed = await browser.get(back.href);
    expect(landed.status).toBe(303);
    const final = new URL(landed.headers.get('location') ?? '');
    expect(`${final.origin}${final.pathname}`).toBe(signedOut);
    expect(final.searchParams.get('state')).toBe('platform-state');
  });

  it("goes straight to the platform's post-logout URI for a password session", async () => {
    const session = new TestClient(t.app);
    const res = await signIn(t, session, 'platform.logout@hygie.test', 'Idp-Passw0rd-1');
    expect(res.statusCode).toBe(200);
    const browser = new Browser(session.cookies);
    const idToken = await platformIdToken(browser);
    const end = client.buildEndSessionUrl(rp, {
      id_token_hint: idToken,
      post_logout_redirect_uri: signedOut,
    });
    const confirmed = await confirmAtPortal(browser, end);
    const final = new URL(confirmed.headers.get('location') ?? '');
    expect(`${final.origin}${final.pathname}`).toBe(signedOut);
    expect((await browser.get(`${base}/api/me`)).status).toBe(401);
  });
});
