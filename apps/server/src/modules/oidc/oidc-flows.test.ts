import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedPlatform } from '@hygie/domain';
import { hashToken } from '../../lib/tokens.js';
import { createUser, DIALECTS, lastCode, signIn, TestClient } from '../../test/helpers.js';
import type { ListeningApp } from './test-support.js';
import { ACR } from './assurance.js';
import {
  authorizationRequest,
  authorizeTo,
  Browser,
  listeningTestApp,
  registerPlatform,
  relyingParty,
  signedInBrowser,
} from './test-support.js';

const PATIENT = {
  email: 'patient@hygie.test',
  password: 'Patient-Passw0rd!',
  phone: '+33612345678',
  ins: '295109912611193',
};
const PROFESSIONAL = {
  email: 'pro@hygie.test',
  password: 'Pro-Passw0rd!42',
  phone: '+33612345679',
  profile: 'professional' as const,
  professionalId: { type: 'RPPS', value: '10002909371' },
};

describe.each(DIALECTS)('OpenID Connect provider on %s', (dialect) => {
  let t: ListeningApp;
  let alpha: CreatedPlatform;
  let beta: CreatedPlatform;
  let rpAlpha: client.Configuration;
  let rpBeta: client.Configuration;
  let patient: { browser: Browser; userId: string };
  let professional: { browser: Browser; userId: string };
  const alphaCallback = 'http://127.0.0.1:9/alpha/callback';

  beforeAll(async () => {
    // A one-second reuse grace, so the test can wait it out.
    t = await listeningTestApp(dialect, { OIDC_REFRESH_REUSE_GRACE_SECONDS: '1' });
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    alpha = await registerPlatform(admin, {
      name: 'Alpha',
      redirectUris: [alphaCallback, 'http://127.0.0.1:9/alpha/other'],
    });
    beta = await registerPlatform(admin, { name: 'Beta', public: true });
    rpAlpha = await relyingParty(t.base, alpha);
    rpBeta = await relyingParty(t.base, beta);
    patient = await signedInBrowser(t, PATIENT);
    await t.ctx.db
      .updateTable('users')
      .set({ birth_date: '1975-00-00', sex: 'male' })
      .where('id', '=', patient.userId)
      .execute();
    professional = await signedInBrowser(t, PROFESSIONAL);
  });
  afterAll(() => t.close());

  /** Authorization code + PKCE through the user's portal session, then the token exchange. */
  async function codeFlow(
    browser: Browser,
    rp: client.Configuration,
    redirectUri: string,
    scope = 'openid email profile',
  ) {
    const start = await authorizationRequest(rp, redirectUri, scope);
    const callback = await authorizeTo(browser, t.base, start);
    const tokens = await client.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return { start, callback, tokens };
  }

  /** Where an authorization request without a usable answer ends: its `error` parameter. */
  async function authorizationError(browser: Browser, url: string) {
    const { url: end } = await browser.follow(url, t.base);
    return { end, error: end.searchParams.get('error') };
  }

  async function userinfoStatus(accessToken: string): Promise<number> {
    const res = await fetch(`${t.base}/oidc/me`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    await res.body?.cancel();
    return res.status;
  }

  it('publishes its configuration: code with PKCE S256 only, the portal scopes and claims', async () => {
    const metadata = rpAlpha.serverMetadata();
    expect(metadata.issuer).toBe(`${t.base}/oidc`);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'email', 'phone', 'profile', 'health', 'offline_access']),
    );
    expect(metadata.claims_supported).toEqual(
      expect.arrayContaining(['profile_type', 'ins', 'ins_oid', 'ins_status', 'professional_id']),
    );
    expect(metadata.end_session_endpoint).toBe(`${t.base}/oidc/session/end`);
    // Bearer tokens only: DPoP stays off (oidc-provider 9 would enable it by default).
    expect(metadata.dpop_signing_alg_values_supported).toBeUndefined();
    const jwks: unknown = await (await fetch(`${t.base}/oidc/jwks`)).json();
    expect(jwks).toMatchObject({ keys: [{ kty: 'RSA', alg: 'RS256', use: 'sig' }] });
    expect(jwks).not.toHaveProperty(['keys', 0, 'd']);
  });

  it('answers an unknown provider path with invalid_request: JSON 404, or /oauth-error in a browser', async () => {
    const api = await fetch(`${t.base}/oidc/nowhere`, { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: 'invalid_request' });
    const page = await fetch(`${t.base}/oidc/nowhere`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    await page.body?.cancel();
    expect(page.status).toBe(303);
    const target = new URL(page.headers.get('location') ?? '');
    expect(target.pathname).toBe('/oauth-error');
    expect(target.searchParams.get('error')).toBe('invalid_request');
  });

  it('answers programs as RFC 6750 and 7009 say: userinfo without a token 401 with a Bearer challenge, revocation errors in JSON', async () => {
    const none = await fetch(`${t.base}/oidc/me`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="/);
    const bad = await fetch(`${t.base}/oidc/me`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const anonymous = await fetch(`${t.base}/oidc/token/revocation`, {
      method: 'POST',
      headers: form,
      body: 'token=x',
    });
    expect(anonymous.status).toBe(400);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await anonymous.json()).toMatchObject({ error: 'invalid_request' });
    const wrongSecret = await fetch(`${t.base}/oidc/token/revocation`, {
      method: 'POST',
      headers: {
        ...form,
        authorization: `Basic ${Buffer.from(`${alpha.clientId}:wrong`).toString('base64')}`,
      },
      body: 'token=x',
    });
    expect(wrongSecret.status).toBe(401);
    // A revocation that worked: 200, an empty body, no content type (not text/plain, which
    // browser clients refuse).
    const revoked = await fetch(`${t.base}/oidc/token/revocation`, {
      method: 'POST',
      headers: {
        ...form,
        authorization: `Basic ${Buffer.from(`${alpha.clientId}:${alpha.clientSecret ?? ''}`).toString('base64')}`,
      },
      body: 'token=unknown-token',
    });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get('content-type')).toBeNull();
    expect(await revoked.text()).toBe('');
    expect(wrongSecret.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('signs a patient in through the portal session: code, tokens and every claim with health', async () => {
    const { tokens } = await codeFlow(
      patient.browser,
      rpAlpha,
      alphaCallback,
      'openid email phone profile health',
    );
    expect(tokens.claims()?.sub).toBe(patient.userId);
    const info = await client.fetchUserInfo(rpAlpha, tokens.access_token, patient.userId);
    expect(info).toEqual({
      sub: patient.userId,
      email: PATIENT.email,
      email_verified: true,
      phone_number: PATIENT.phone,
      phone_number_verified: true,
      given_name: 'Jeanne',
      family_name: 'Martin',
      birthdate: '1975', // day and month unknown: the year alone, nothing invented
      gender: 'male',
      profile_type: 'patient',
      ins: PATIENT.ins,
      // Set with the INS at registration, read from the number (a NIR); declared, not qualified.
      ins_oid: '1.2.250.1.213.1.4.8',
      ins_status: 'provisional',
    });
  });

  it('gives a professional identifier only under the health scope', async () => {
    const without = await codeFlow(professional.browser, rpAlpha, alphaCallback, 'openid profile');
    const basic = await client.fetchUserInfo(
      rpAlpha,
      without.tokens.access_token,
      professional.userId,
    );
    expect(basic).toMatchObject({ sub: professional.userId, profile_type: 'professional' });
    expect(basic).not.toHaveProperty('professional_id');
    expect(basic).not.toHaveProperty('email');

    const withHealth = await codeFlow(
      professional.browser,
      rpAlpha,
      alphaCallback,
      'openid health',
    );
    const health = await client.fetchUserInfo(
      rpAlpha,
      withHealth.tokens.access_token,
      professional.userId,
    );
    expect(health).toEqual({
      sub: professional.userId,
      professional_id: '10002909371',
      professional_id_type: 'RPPS',
    });
  });

  it('says how the user signed in: amr (RFC 8176) and acr in the ID token, acr values in discovery', async () => {
    // The patient signed in with the password and a code received by e-mail.
    const { tokens } = await codeFlow(patient.browser, rpAlpha, alphaCallback, 'openid');
    // Password + e-mail code: the level `low` (nothing asked for: the session's own value).
    expect(tokens.claims()).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], acr: ACR.low });
    const discovery = await (await fetch(`${t.base}/oidc/.well-known/openid-configuration`)).json();
    expect(discovery).toMatchObject({
      acr_values_supported: [ACR.oneFactor, ACR.low, ACR.substantial, ACR.high],
    });
  });

  it('passes the platform’s login_hint and ui_locales to the sign-in page', async () => {
    const start = await authorizationRequest(rpAlpha, alphaCallback, 'openid', {
      login_hint: 'jeanne.martin@example.fr',
      ui_locales: 'de ar-MA fr',
    });
    const { url: login } = await new Browser().follow(start.url.href, t.base);
    expect(login.pathname).toBe('/security/login');
    expect(login.searchParams.get('username')).toBe('jeanne.martin@example.fr');
    expect(login.searchParams.get('l')).toBe('ar');
    // Without hints, none are invented.
    const plain = await authorizationRequest(rpAlpha, alphaCallback, 'openid', {
      ui_locales: 'de',
    });
    const { url: bare } = await new Browser().follow(plain.url.href, t.base);
    expect(bare.searchParams.has('username')).toBe(false);
    expect(bare.searchParams.has('l')).toBe(false);
  });

  it('sends a browser without a complete portal session to the sign-in page, then on to the platform', async () => {
    const user = { email: 'later@hygie.test', password: 'Later-Passw0rd!', phone: '+33612345670' };
    const browser = new Browser();
    const start = await authorizationRequest(rpAlpha, alphaCallback);
    const { url: login } = await browser.follow(start.url.href, t.base);
    expect(login.pathname).toBe('/security/login');
    const target = login.searchParams.get('target_uri') ?? '';
    expect(target).toMatch(new RegExp(`^${t.base}/oidc/interaction/[\\w-]+$`));

    // Password only: the second factor is still pending, the interaction sends back to sign-in.
    await createUser(t, user);
    const pending = new TestClient(t.app);
    await pending.login(user.email, user.password);
    for (const [name, value] of pending.cookies) browser.cookies.set(name, value);
    expect((await browser.follow(target, t.base)).url.pathname).toBe('/security/login');

    // The sign-in completes (the SPA then navigates to target_uri): on to the platform.
    await signIn(t, pending, user.email, user.password);
    for (const [name, value] of pending.cookies) browser.cookies.set(name, value);
    const { url: callback } = await browser.follow(target, t.base);
    expect(callback.origin + callback.pathname).toBe(alphaCallback);
    const tokens = await client.authorizationCodeGrant(rpAlpha, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.access_token).toBeTruthy();
  });

  it('answers prompt=none silently with a portal session, login_required without one', async () => {
    await codeFlow(patient.browser, rpAlpha, alphaCallback);
    const silent = await authorizationRequest(rpAlpha, alphaCallback, 'openid', { prompt: 'none' });
    const callback = await authorizeTo(patient.browser, t.base, silent);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const anonymous = await authorizationRequest(rpAlpha, alphaCallback, 'openid', {
      prompt: 'none',
    });
    const refused = await authorizeTo(new Browser(), t.base, anonymous);
    expect(refused.searchParams.get('error')).toBe('login_required');
  });

  it('serves a public client (no secret, PKCE does the work)', async () => {
    const { tokens } = await codeFlow(patient.browser, rpBeta, beta.redirectUris[0] ?? '');
    expect(tokens.claims()?.aud).toBe(beta.clientId);
    expect(await client.fetchUserInfo(rpBeta, tokens.access_token, patient.userId)).toMatchObject({
      sub: patient.userId,
      email: PATIENT.email,
    });
  });

  it('rotates refresh tokens: the new one works, the old one is refused', async () => {
    const { tokens } = await codeFlow(patient.browser, rpAlpha, alphaCallback);
    const first = tokens.refresh_token ?? '';
    expect(first).toBeTruthy();
    const rotated = await client.refreshTokenGrant(rpAlpha, first);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first);
    expect(await userinfoStatus(rotated.access_token)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the reuse grace
    await expect(client.refreshTokenGrant(rpAlpha, first)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // A reuse revokes the grant: the token the rotation gave stops too.
    await expect(
      client.refreshTokenGrant(rpAlpha, rotated.refresh_token ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('two tabs refreshing at once with the same token both get a new one; the grant lives on', async () => {
    const { tokens } = await codeFlow(patient.browser, rpAlpha, alphaCallback);
    const shared = tokens.refresh_token ?? '';
    const [a, b] = await Promise.all([
      client.refreshTokenGrant(rpAlpha, shared),
      client.refreshTokenGrant(rpAlpha, shared),
    ]);
    expect(a.refresh_token).not.toBe(b.refresh_token);
    expect(await userinfoStatus(a.access_token)).toBe(200);
    expect(await userinfoStatus(b.access_token)).toBe(200);
    // Each tab goes on with its own token.
    expect(
      (await client.refreshTokenGrant(rpAlpha, a.refresh_token ?? '')).access_token,
    ).toBeTruthy();
    expect(
      (await client.refreshTokenGrant(rpAlpha, b.refresh_token ?? '')).access_token,
    ).toBeTruthy();
  });

  it('refuses a replayed code and revokes the tokens it gave', async () => {
    const { start, callback, tokens } = await codeFlow(patient.browser, rpAlpha, alphaCallback);
    expect(await userinfoStatus(tokens.access_token)).toBe(200);
    await expect(
      client.authorizationCodeGrant(rpAlpha, callback, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    await expect(
      client.refreshTokenGrant(rpAlpha, tokens.refresh_token ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('keeps codes 60 seconds at most, and only the hash of a client secret', async () => {
    const start = await authorizationRequest(rpAlpha, alphaCallback);
    const before = Date.now();
    await authorizeTo(patient.browser, t.base, start);
    const code = await t.ctx.db
      .selectFrom('oidc_store')
      .select('expires_at')
      .where('model', '=', 'AuthorizationCode')
      .where('account_id', '=', patient.userId)
      .orderBy('expires_at', 'desc')
      .executeTakeFirstOrThrow();
    expect((code.expires_at ?? Infinity) - before).toBeLessThanOrEqual(61_000);
    const row = await t.ctx.db
      .selectFrom('platforms')
      .select('client_secret_hash')
      .where('id', '=', alpha.id)
      .executeTakeFirstOrThrow();
    expect(row.client_secret_hash).toBe(hashToken(alpha.clientSecret ?? ''));
  });

  it('refuses a wrong client secret', async () => {
    const impostor = await relyingParty(t.base, {
      clientId: alpha.clientId,
      clientSecret: 'x'.repeat(43),
    });
    const start = await authorizationRequest(impostor, alphaCallback);
    const callback = await authorizeTo(patient.browser, t.base, start);
    await expect(
      client.authorizationCodeGrant(impostor, callback, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      }),
    ).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: 'invalid_client' } }],
    });
  });

  it('refuses a redirect URI that is not registered exactly, and a code sent back to another one', async () => {
    for (const uri of ['http://127.0.0.1:9/alpha/callback/', 'http://127.0.0.1:9/alpha/evil']) {
      const start = await authorizationRequest(rpAlpha, uri);
      const { end, error } = await authorizationError(patient.browser, start.url.href);
      expect(end.pathname).toBe('/oauth-error');
      expect(error).toBe('invalid_redirect_uri');
    }
    const start = await authorizationRequest(rpAlpha, alphaCallback);
    const callback = await authorizeTo(patient.browser, t.base, start);
    const elsewhere = new URL(`http://127.0.0.1:9/alpha/other${callback.search}`);
    await expect(
      client.authorizationCodeGrant(rpAlpha, elsewhere, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('requires PKCE: no challenge, a plain challenge, or no verifier is refused', async () => {
    const noChallenge = client.buildAuthorizationUrl(rpAlpha, {
      redirect_uri: alphaCallback,
      scope: 'openid',
      state: 's',
    });
    expect((await authorizationError(patient.browser, noChallenge.href)).error).toBe(
      'invalid_request',
    );

    const plain = client.buildAuthorizationUrl(rpAlpha, {
      redirect_uri: alphaCallback,
      scope: 'openid',
      state: 's',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    const refused = await authorizationError(patient.browser, plain.href);
    expect(refused.error).toBe('invalid_request');
    expect(refused.end.searchParams.get('error_description')).toMatch(/code_challenge_method/);

    const start = await authorizationRequest(rpAlpha, alphaCallback);
    const callback = await authorizeTo(patient.browser, t.base, start);
    await expect(
      client.authorizationCodeGrant(rpAlpha, callback, { expectedState: start.state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses the implicit flow and the password grant', async () => {
    const implicit = new URL(`${t.base}/oidc/auth`);
    implicit.search = new URLSearchParams({
      client_id: alpha.clientId,
      response_type: 'token',
      redirect_uri: alphaCallback,
      scope: 'openid',
      state: 's',
      nonce: 'n',
    }).toString();
    // The refusal goes back in the fragment, as an implicit answer would, with no token in it.
    const { end } = await authorizationError(patient.browser, implicit.href);
    const answer = new URLSearchParams(end.hash.slice(1));
    expect(answer.get('error')).toBe('unsupported_response_type');
    expect(answer.has('access_token')).toBe(false);
    expect(end.searchParams.has('code')).toBe(false);

    const password = await fetch(`${t.base}/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${alpha.clientId}:${alpha.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'password',
        username: PATIENT.email,
        password: PATIENT.password,
      }).toString(),
    });
    expect(password.status).toBe(400);
    expect(await password.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  // Last: it moves the clock past the idle time-out of the sessions the other tests share.
  it('prompt=login and max_age make the user sign in again; auth_time says when', async () => {
    const user = { email: 'fresh@hygie.test', password: 'Fresh-Passw0rd!', phone: '+33612345671' };
    const { browser, client: portal } = await signedInBrowser(t, user);
    const signedInAt = Math.floor(t.clock.now() / 1000);

    // A max_age the sign-in is within: straight through, auth_time is the sign-in.
    t.clock.advance(120_000);
    const recent = await authorizationRequest(rpAlpha, alphaCallback, 'openid', {
      max_age: '3600',
    });
    const through = await client.authorizationCodeGrant(
      rpAlpha,
      await authorizeTo(browser, t.base, recent),
      { pkceCodeVerifier: recent.verifier, expectedState: recent.state, maxAge: 3600 },
    );
    expect(through.claims()?.auth_time).toBeLessThanOrEqual(signedInAt + 1);

    const fresh: Record<string, string>[] = [{ prompt: 'login' }, { max_age: '1' }];
    for (const extra of fresh) {
      // The provider measures max_age on the real clock, in whole seconds: let two pass.
      if (extra.max_age) await new Promise((resolve) => setTimeout(resolve, 2_100));
      const start = await authorizationRequest(rpAlpha, alphaCallback, 'openid', extra);
      const { url: login } = await browser.follow(start.url.href, t.base);
      // To the sign-in page, the user's address pre-filled; the stale portal session has ended.
      expect(login.pathname).toBe('/security/login');
      expect(login.searchParams.get('username')).toBe(user.email);
      expect((await portal.get('/api/me')).statusCode).toBe(401);

      const again = new TestClient(t.app);
      await signIn(t, again, user.email, user.password);
      for (const [name, value] of again.cookies) browser.cookies.set(name, value);
      const reauthenticatedAt = Math.floor(t.clock.now() / 1000);
      const { url: callback } = await browser.follow(
        login.searchParams.get('target_uri') ?? '',
        t.base,
      );
      const tokens = await client.authorizationCodeGrant(rpAlpha, callback, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      });
      expect(tokens.claims()?.auth_time).toBeGreaterThanOrEqual(
        Math.min(reauthenticatedAt, Math.floor(Date.now() / 1000)) - 1,
      );
      for (const [name, value] of again.cookies) portal.cookies.set(name, value);
      t.clock.advance(120_000);
    }
  });

  it('acr_values asking for two factors makes a trusted browser pass the second factor it skipped', async () => {
    const user = {
      email: 'trusted@hygie.test',
      password: 'Trusted-Passw0rd!',
      phone: '+33612345671',
    };
    await createUser(t, user);
    // The browser is trusted at a first sign-in; the next one skips the second factor.
    const first = new TestClient(t.app);
    await signIn(t, first, user.email, user.password, { trustDevice: true });
    const device = first.cookies.get('hygie_device') ?? '';
    expect(device).not.toBe('');
    const portal = new TestClient(t.app);
    portal.cookies.set('hygie_device', device);
    expect((await signIn(t, portal, user.email, user.password)).statusCode).toBe(200);
    const browser = new Browser(portal.cookies);

    // One factor is enough for a platform that asks nothing, or accepts either level.
    const plain = await codeFlow(browser, rpAlpha, alphaCallback, 'openid');
    expect(plain.tokens.claims()).toMatchObject({ amr: ['pwd'], acr: ACR.oneFactor });
    const either = await authorizationRequest(rpAlpha, alphaCallback, 'openid', {
      acr_values: `${ACR.twoFactors} ${ACR.oneFactor}`,
    });
    expect((await browser.follow(either.url.href, t.base)).url.origin).toBe('http://127.0.0.1:9');

    // Two factors asked for: the portal asks for the second one, then goes on to the platform.
    const start = await authorizationRequest(rpAlpha, alphaCallback, 'openid', {
      acr_values: ACR.twoFactors,
    });
    const { url: mfa } = await browser.follow(start.url.href, t.base);
    expect(mfa.pathname).toBe('/security/mfa');
    const target = mfa.searchParams.get('target_uri') ?? '';
    expect(target).toMatch(new RegExp(`^${t.base}/oidc/interaction/`));
    const me = await portal.get('/api/me');
    expect(me.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    await portal.post('/api/mfa/send', { provider: 'email' });
    const verified = await portal.post('/api/mfa/verify', {
      provider: 'email',
      code: await lastCode(t, user.email),
      trustDevice: false,
    });
    expect(verified.statusCode).toBe(200);
    for (const [name, value] of portal.cookies) browser.cookies.set(name, value);
    const { url: callback } = await browser.follow(target, t.base);
    expect(callback.origin + callback.pathname).toBe(alphaCallback);
    const tokens = await client.authorizationCodeGrant(rpAlpha, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.claims()).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], acr: ACR.twoFactors });
    // The browser stays trusted: the next sign-in still skips the second factor.
    const again = new TestClient(t.app);
    again.cookies.set('hygie_device', device);
    expect((await again.login(user.email, user.password)).statusCode).toBe(200);
  });
});
