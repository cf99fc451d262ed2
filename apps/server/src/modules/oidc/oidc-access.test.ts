import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedPlatform } from '@hygie/domain';
import { DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import type { ListeningApp } from './test-support.js';
import {
  authorizationRequest,
  authorizeTo,
  Browser,
  listeningTestApp,
  registerPlatform,
  relyingParty,
  signedInBrowser,
} from './test-support.js';

let users = 0;
function newUser() {
  users += 1;
  return {
    email: `user${users}@hygie.test`,
    password: 'User-Passw0rd!',
    phone: `+336123400${String(users).padStart(2, '0')}`,
  };
}

describe.each(DIALECTS)('platform access, consent and single sign-out on %s', (dialect) => {
  let t: ListeningApp;
  let admin: TestClient;
  const platforms: Record<string, { platform: CreatedPlatform; rp: client.Configuration }> = {};

  beforeAll(async () => {
    t = await listeningTestApp(dialect);
    admin = new TestClient(t.app);
    await signIn(t, admin);
    for (const [name, options] of [
      ['Alpha', {}],
      ['Beta', {}],
      ['Gamma', { accessPolicy: 'on_request' as const }],
      ['Delta', { accessPolicy: 'admin' as const }],
      ['Epsilon', { firstParty: false }],
    ] as const) {
      const platform = await registerPlatform(admin, { name, ...options });
      platforms[name] = { platform, rp: await relyingParty(t.base, platform) };
    }
  });
  afterAll(() => t.close());

  function use(name: string) {
    const entry = platforms[name];
    if (!entry) throw new Error(name);
    return { ...entry, callback: entry.platform.redirectUris[0] ?? '' };
  }

  async function signInTo(browser: Browser, name: string, scope = 'openid email') {
    const { rp, callback } = use(name);
    const start = await authorizationRequest(rp, callback, scope);
    const url = await authorizeTo(browser, t.base, start);
    return client.authorizationCodeGrant(rp, url, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
  }

  async function endsOn(browser: Browser, name: string) {
    const { rp, callback } = use(name);
    const start = await authorizationRequest(rp, callback);
    return (await browser.follow(start.url.href, t.base)).url;
  }

  it('an admin cuts access to Alpha: Beta still works, Alpha ends on /oauth-error at its next request', async () => {
    const { browser, userId } = await signedInBrowser(t, newUser());
    const before = await signInTo(browser, 'Alpha');
    const alpha = use('Alpha').platform;
    // Before the cut the token is active — for its own platform only: another platform's
    // introspection learns nothing of it.
    const introspect = (name: string) =>
      client.tokenIntrospection(use(name).rp, before.access_token);
    expect(await introspect('Alpha')).toMatchObject({ active: true, sub: userId });
    expect(await introspect('Beta')).toEqual({ active: false });

    const cut = await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${userId}/platforms/${alpha.id}`,
      payload: { enabled: false },
    });
    expect(cut.statusCode).toBe(200);
    expect(cut.json()).toMatchObject({ status: 'disabled', usable: false, action: 'none' });
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'platform_access_disabled')
      .where('target_id', '=', userId)
      .executeTakeFirst();
    expect(audit?.actor_id).toBeTruthy();

    const denied = await endsOn(browser, 'Alpha');
    expect(denied.origin).toBe(t.base);
    expect(denied.pathname).toBe('/oauth-error');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('error_description')).toBeTruthy();
    // The page names the platform from the registry, by client id: its address carries no name.
    expect(denied.searchParams.get('client_id')).toBe(alpha.clientId);
    expect(denied.searchParams.has('platform')).toBe(false);
    const named = await t.app.inject(`/api/platforms/by-client/${alpha.clientId}`);
    expect(named.json()).toEqual({ name: 'Alpha', url: alpha.url });
    expect((await t.app.inject('/api/platforms/by-client/not-a-client')).statusCode).toBe(404);
    // Tokens already given stop working too: the rule is checked at every token use.
    await expect(
      client.refreshTokenGrant(use('Alpha').rp, before.refresh_token ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    const userinfo = await fetch(`${t.base}/oidc/me`, {
      headers: { authorization: `Bearer ${before.access_token}` },
    });
    expect(userinfo.status).toBe(401);
    // A resource server asking the provider hears the same: the token is no longer active.
    expect(await introspect('Alpha')).toEqual({ active: false });

    expect((await signInTo(browser, 'Beta')).access_token).toBeTruthy();

    const restored = await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${userId}/platforms/${alpha.id}`,
      payload: { enabled: true },
    });
    expect(restored.json()).toMatchObject({ status: 'enabled', usable: true });
    expect((await signInTo(browser, 'Alpha')).access_token).toBeTruthy();
  });

  it('an on_request platform opens once the user enables it from "My services"', async () => {
    const { browser, client: session } = await signedInBrowser(t, newUser());
    const gamma = use('Gamma').platform;
    expect((await endsOn(browser, 'Gamma')).searchParams.get('error')).toBe('access_denied');
    const services = (await session.get('/api/services')).json<{
      services: { id: string; usable: boolean; action: string }[];
    }>();
    expect(services.services.find((s) => s.id === gamma.id)).toMatchObject({
      usable: false,
      action: 'enable',
    });
    const enabled = await session.post(`/api/services/${gamma.id}/enable`);
    expect(enabled.json()).toMatchObject({ status: 'enabled', usable: true, action: 'open' });
    expect((await signInTo(browser, 'Gamma')).access_token).toBeTruthy();
  });

  it('an admin-policy platform: the user asks, an admin lets them in', async () => {
    const { browser, client: session, userId } = await signedInBrowser(t, newUser());
    const delta = use('Delta').platform;
    const asked = await session.post(`/api/services/${delta.id}/enable`);
    expect(asked.json()).toMatchObject({ status: 'requested', usable: false, action: 'pending' });
    expect((await endsOn(browser, 'Delta')).searchParams.get('error')).toBe('access_denied');
    await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${userId}/platforms/${delta.id}`,
      payload: { enabled: true },
    });
    expect((await signInTo(browser, 'Delta')).access_token).toBeTruthy();
  });

  it('a token of a locked account is not active, whatever its expiry says', async () => {
    const { browser, userId } = await signedInBrowser(t, newUser());
    const tokens = await signInTo(browser, 'Beta');
    expect(await client.tokenIntrospection(use('Beta').rp, tokens.access_token)).toMatchObject({
      active: true,
    });
    // The status alone (the lock's own clean-up aside) already ends the token's use.
    await t.ctx.db
      .updateTable('users')
      .set({ status: 'locked' })
      .where('id', '=', userId)
      .execute();
    expect(await client.tokenIntrospection(use('Beta').rp, tokens.access_token)).toEqual({
      active: false,
    });
  });

  it('a third-party platform asks for consent once; refusing sends access_denied to it', async () => {
    const { browser } = await signedInBrowser(t, newUser());
    const { rp, callback } = use('Epsilon');
    const start = await authorizationRequest(rp, callback, 'openid email');
    const { url, response } = await browser.follow(start.url.href, t.base);
    expect(url.pathname).toMatch(/^\/oidc\/interaction\//);
    expect(response?.status).toBe(200);
    const html = (await response?.text()) ?? '';
    expect(html).toContain('Epsilon');
    expect(html).toContain('<html lang="fr" dir="ltr">');
    // Browsers apply form-action to the redirects after the form: the platform's origin is allowed.
    const formAction = /form-action ([^;]+)/.exec(
      response?.headers.get('content-security-policy') ?? '',
    );
    expect(formAction?.[1]).toBe(`'self' ${new URL(callback).origin}`);
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const allowed = await browser.postForm(new URL(action, t.base).href, {
      token,
      decision: 'allow',
    });
    expect(allowed.status).toBe(303);
    const back = await browser.follow(
      new URL(allowed.headers.get('location') ?? '', t.base).href,
      t.base,
    );
    expect(back.url.searchParams.get('code')).toBeTruthy();
    // Consent is remembered: the next sign-in goes straight through.
    expect((await signInTo(browser, 'Epsilon')).access_token).toBeTruthy();

    // A new scope asks again; refusing answers the platform access_denied.
    const more = await authorizationRequest(rp, callback, 'openid email health');
    const page = await browser.follow(more.url.href, t.base);
    const html2 = (await page.response?.text()) ?? '';
    const refused = await browser.postForm(
      new URL(/action="([^"]+)"/.exec(html2)?.[1] ?? '', t.base).href,
      { token: /name="token" value="([^"]+)"/.exec(html2)?.[1] ?? '', decision: 'deny' },
    );
    const end = await browser.follow(
      new URL(refused.headers.get('location') ?? '', t.base).href,
      t.base,
    );
    expect(end.url.origin + end.url.pathname).toBe(callback);
    expect(end.url.searchParams.get('error')).toBe('access_denied');
  });

  it('/api/logout ends the portal session and the provider sessions; session-bound tokens stop', async () => {
    const { browser, userId } = await signedInBrowser(t, newUser());
    const tokens = await signInTo(browser, 'Alpha');
    const sessions = () =>
      t.ctx.db
        .selectFrom('oidc_store')
        .select('id')
        .where('model', '=', 'Session')
        .where('account_id', '=', userId)
        .execute();
    expect(await sessions()).toHaveLength(1);

    const out = await browser.get(`${t.base}/api/logout`);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(`${t.base}/security/login`);
    expect(await sessions()).toHaveLength(0);
    expect((await browser.get(`${t.base}/api/me`)).status).toBe(401);
    // Without offline_access the refresh token lived with the provider session.
    await expect(
      client.refreshTokenGrant(use('Alpha').rp, tokens.refresh_token ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await endsOn(browser, 'Alpha')).pathname).toBe('/security/login');
  });

  it('/api/logout follows a registered post-logout URI and drops any other', async () => {
    const registered = use('Alpha').platform.postLogoutRedirectUris[0] ?? '';
    for (const [target, expected] of [
      [registered, registered],
      ['http://127.0.0.1:9/alpha/elsewhere', `${t.base}/security/login`],
      ['https://evil.example/', `${t.base}/security/login`],
      ['/services', `${t.base}/services`],
    ]) {
      const res = await new Browser().get(
        `${t.base}/api/logout?target_uri=${encodeURIComponent(target ?? '')}`,
      );
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(expected);
    }
  });

  it('another user signing in to the portal in the same browser replaces the provider session, not their own', async () => {
    const first = await signedInBrowser(t, newUser());
    await signInTo(first.browser, 'Alpha');
    // The first user's portal session ends (as an idle expiry does) but the provider's stays.
    await t.ctx.db.deleteFrom('sessions').where('user_id', '=', first.userId).execute();
    const second = await signedInBrowser(t, newUser());
    const browser = first.browser;
    browser.cookies.set('hygie_session', second.browser.cookies.get('hygie_session') ?? '');

    const { rp, callback } = use('Alpha');
    const start = await authorizationRequest(rp, callback, 'openid');
    // The provider ends the stale session with a self-submitting form, then resumes.
    const { url, response } = await browser.follow(start.url.href, t.base);
    const html = (await response?.text()) ?? '';
    expect(url.pathname).toMatch(/^\/oidc\/auth\//);
    const form = Object.fromEntries(
      [...html.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m): [string, string] => [
        m[1] ?? '',
        m[2] ?? '',
      ]),
    );
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const posted = await browser.postForm(new URL(action, t.base).href, form);
    const end = await browser.follow(
      new URL(posted.headers.get('location') ?? '', t.base).href,
      t.base,
    );
    expect(end.url.origin + end.url.pathname).toBe(callback);
    const tokens = await client.authorizationCodeGrant(rp, end.url, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.claims()?.sub).toBe(second.userId);
    expect((await browser.get(`${t.base}/api/me`)).status).toBe(200);
  });

  it('RP-initiated logout asks, then signs out of the portal too and returns to the platform', async () => {
    const { browser } = await signedInBrowser(t, newUser());
    const tokens = await signInTo(browser, 'Alpha');
    const { rp, platform } = use('Alpha');
    const postLogout = platform.postLogoutRedirectUris[0] ?? '';
    const end = client.buildEndSessionUrl(rp, {
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: postLogout,
      state: 'bye',
    });
    const page = await browser.get(end.href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('Se déconnecter ?');
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirmed = await browser.postForm(new URL(action, t.base).href, {
      xsrf,
      logout: 'yes',
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${postLogout}?state=bye`);
    expect((await browser.get(`${t.base}/api/me`)).status).toBe(401);
    expect((await endsOn(browser, 'Alpha')).pathname).toBe('/security/login');
  });
});
