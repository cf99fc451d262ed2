// Sign-in with upstream identity providers (issue #16, first slice): mock Pro Santé Connect and
// FranceConnect built with oidc-provider, driven through the portal's start and callback routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  testConfig,
  TestClient,
} from '../../test/helpers.js';
import { amrOf } from '../oidc/assurance.js';
import { freePort } from '../oidc/test-support.js';
import { linkIdentity } from './service.js';
import { FAILURE_BACKOFF_MS } from './upstream.js';
import type { MockProvider } from './test-support.js';
import {
  callbackFromProvider,
  franceConnectClaims,
  PORTAL,
  providerEnv,
  pscClaims,
  startMockProvider,
  startSilentServer,
} from './test-support.js';

const LOGIN = '/security/login';

describe('identity providers configuration', () => {
  it('enables none unless configured', () => {
    expect(testConfig().identityProviders).toEqual([]);
  });

  it('reads a provider with its defaults', () => {
    const config = testConfig({
      PSC_ISSUER: 'https://auth.esw.esante.gouv.fr/auth/realms/esante-wallet',
      PSC_CLIENT_ID: 'portal',
      PSC_CLIENT_SECRET: 'secret',
      FRANCECONNECT_ISSUER: 'https://oidc.franceconnect.gouv.fr/api/v2',
      FRANCECONNECT_CLIENT_ID: 'portal-fc',
      FRANCECONNECT_CLIENT_SECRET: 'secret',
      FRANCECONNECT_ACR_VALUES: 'eidas2 eidas3',
    });
    expect(config.identityProviders.map((p) => [p.id, p.claims, p.scopes, p.acrValues])).toEqual([
      ['psc', 'psc', ['openid', 'scope_all'], ['eidas1']],
      [
        'franceconnect',
        'franceconnect',
        [
          'openid',
          'given_name',
          'family_name',
          'birthdate',
          'gender',
          'birthplace',
          'birthcountry',
          'preferred_username',
        ],
        ['eidas2', 'eidas3'],
      ],
    ]);
  });

  it('refuses an issuer without its client, scopes without openid, and http in production', () => {
    expect(() => testConfig({ PSC_ISSUER: 'https://psc.example' })).toThrow(
      'PSC_ISSUER, PSC_CLIENT_ID and PSC_CLIENT_SECRET go together',
    );
    const psc = { PSC_ISSUER: 'https://psc.example', PSC_CLIENT_ID: 'a', PSC_CLIENT_SECRET: 'b' };
    expect(() => testConfig({ ...psc, PSC_SCOPES: 'scope_all' })).toThrow('PSC_SCOPES');
    expect(() =>
      testConfig({
        ...psc,
        PSC_ISSUER: 'http://psc.example',
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail.example',
        SMS_GATEWAY_URL: 'https://sms.example',
      }),
    ).toThrow('PSC_ISSUER must be https in production');
  });
});

describe.each(DIALECTS)('identity providers (%s)', (dialect) => {
  let t: TestApp;
  let psc: MockProvider;
  let fc: MockProvider;
  let userId: string;

  beforeAll(async () => {
    psc = await startMockProvider('psc', `${PORTAL}/api/idp/psc/callback`);
    fc = await startMockProvider('franceconnect', `${PORTAL}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: {
        ...providerEnv('PSC', psc),
        ...providerEnv('FRANCECONNECT', fc),
        // FranceConnect+ (eidas2) is the level that counts as both factors.
        FRANCECONNECT_ACR_VALUES: 'eidas2',
        IDP_TIMEOUT_MS: '1000',
      },
    });
    userId = await createUser(t, {
      email: 'dr.dupont@hygie.test',
      password: 'Idp-Passw0rd-1',
      phone: '+33612345678',
      profile: 'professional',
      professionalId: { type: 'RPPS', value: '10001234567' },
    });
    psc.accounts.set('f:psc-sub-1', pscClaims('10001234567'));
    psc.accounts.set('f:psc-unlinked', pscClaims('10009999999', 'Paul', 'Inconnu'));
    fc.accounts.set('fc-pairwise-1', franceConnectClaims());
    await linkIdentity(t.ctx, 'psc', 'f:psc-sub-1', userId);
    await linkIdentity(t.ctx, 'franceconnect', 'fc-pairwise-1', userId);
  });

  afterAll(async () => {
    await t.close();
    await psc.close();
    await fc.close();
  });

  /** Starts at the portal, signs in at the provider, and brings the browser back to the callback. */
  async function roundTrip(
    client: TestClient,
    provider: 'psc' | 'franceconnect',
    query = '',
  ): Promise<{ callback: string; response: LightMyRequestResponse }> {
    const callback = await callbackFromProvider(client, provider, query);
    return { callback, response: await client.get(callback) };
  }

  async function sessionsOf(id: string) {
    return t.ctx.db
      .selectFrom('sessions')
      .select(['stage', 'amr', 'mfa_verified_at'])
      .where('user_id', '=', id)
      .execute();
  }

  async function lastEvent(action: 'identity_provider_failed' | 'login_identity_provider') {
    const row = await t.ctx.db
      .selectFrom('audit_events')
      .select(['action', 'target_id', 'details'])
      .where('action', '=', action)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const details: unknown = JSON.parse(row.details ?? '{}');
    return { ...row, details };
  }

  it('lists the enabled providers in the public configuration', async () => {
    const res = await new TestClient(t.app).get('/api/config');
    expect(res.json<{ identityProviders: string[] }>().identityProviders).toEqual([
      'psc',
      'franceconnect',
    ]);
  });

  it('starts with the code flow, PKCE S256, state, nonce and acr_values', async () => {
    const client = new TestClient(t.app);
    const res = await client.get('/api/idp/psc/start?target_uri=%2Fdevices');
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(url.origin).toBe(psc.issuer);
    const params = url.searchParams;
    expect(params.get('client_id')).toBe(psc.clientId);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('redirect_uri')).toBe(`${PORTAL}/api/idp/psc/callback`);
    expect(params.get('scope')).toBe('openid scope_all');
    expect(params.get('acr_values')).toBe('eidas1');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const cookie = res.cookies.find((c) => c.name === 'hygie_idp');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 600 });
    // Sealed: neither the state nor the verifier can be read in it.
    expect(cookie?.value).not.toContain(params.get('state'));
  });

  it('signs a linked professional in with both factors (PSC eidas1)', async () => {
    psc.nextLogin = { subject: 'f:psc-sub-1', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const { response } = await roundTrip(client, 'psc', '?target_uri=%2Fdevices');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${PORTAL}/devices`);
    const me = await client.get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json<{ id: string }>().id).toBe(userId);
    expect(me.json<{ id: string }>().id).toBe(userId);
    const sessions = await sessionsOf(userId);
    expect(sessions).toContainEqual(expect.objectContaining({ stage: 'complete', amr: 'ext mfa' }));
    expect(await lastEvent('login_identity_provider')).toMatchObject({
      target_id: userId,
      details: { provider: 'psc', twoFactors: true },
    });
    const link = await t.ctx.db
      .selectFrom('identity_links')
      .select('last_used_at')
      .where('subject', '=', 'f:psc-sub-1')
      .executeTakeFirstOrThrow();
    expect(link.last_used_at).toBe(t.clock.now());
  });

  it('keeps the portal second factor below the configured level (FranceConnect eidas1 < eidas2)', async () => {
    fc.nextLogin = { subject: 'fc-pairwise-1', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const { response } = await roundTrip(client, 'franceconnect');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    const me = await client.get('/api/me');
    expect(me.statusCode).toBe(401);
    expect(me.json<{ code: string }>().code).toBe('two_factor_authentication_required');
    expect(await lastEvent('login_identity_provider')).toMatchObject({
      details: { provider: 'franceconnect', twoFactors: false },
    });
  });

  it("counts the provider's sign-in and the portal's code as two factors towards platforms", async () => {
    fc.nextLogin = { subject: 'fc-pairwise-1', acr: 'eidas1' };
    const client = new TestClient(t.app);
    await roundTrip(client, 'franceconnect');
    t.clock.advance(2 * 60_000);
    await client.post('/api/mfa/send', { provider: 'email' });
    const verified = await client.post('/api/mfa/verify', {
      provider: 'email',
      code: await lastCode(t, 'dr.dupont@hygie.test'),
      trustDevice: false,
    });
    expect(verified.statusCode).toBe(200);
    const session = (await sessionsOf(userId)).find((s) => s.amr === 'ext otp');
    expect(session).toBeDefined();
    expect(session && amrOf(session)).toEqual(['ext', 'otp', 'mfa']);
  });

  it('counts FranceConnect+ (eidas2) as both factors', async () => {
    fc.nextLogin = { subject: 'fc-pairwise-1', acr: 'eidas2' };
    const client = new TestClient(t.app);
    const { response } = await roundTrip(client, 'franceconnect');
    expect(response.statusCode).toBe(303);
    expect((await client.get('/api/me')).statusCode).toBe(200);
  });

  it('sends an unlinked identity back to the login page to prove an account, signed out', async () => {
    psc.nextLogin = { subject: 'f:psc-unlinked', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const { response } = await roundTrip(client, 'psc');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(
      `${LOGIN}?idp_link=psc&redirect=${encodeURIComponent('/devices?idp_link=psc')}`,
    );
    expect(client.cookies.has('hygie_session')).toBe(false);
    expect((await client.get('/api/me')).statusCode).toBe(401);
    expect(await lastEvent('identity_provider_failed')).toMatchObject({
      details: { provider: 'psc', reason: 'not_linked' },
    });
  });

  it('refuses a callback whose state is not the one sent, and a replayed one', async () => {
    psc.nextLogin = { subject: 'f:psc-sub-1', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const start = await client.get('/api/idp/psc/start');
    expect(start.statusCode).toBe(302);
    const forged = await client.get('/api/idp/psc/callback?code=abc&state=not-the-state');
    expect(forged.statusCode).toBe(400);
    expect(forged.json<{ code: string }>().code).toBe('identity_provider_sign_in_invalid');

    const { callback, response } = await roundTrip(client, 'psc');
    expect(response.statusCode).toBe(303);
    const other = new TestClient(t.app);
    const replayed = await other.get(callback);
    expect(replayed.statusCode).toBe(400);
    expect(other.cookies.has('hygie_session')).toBe(false);
    // The browser that finished also cannot use it twice: its transaction is gone.
    const again = await client.get(callback);
    expect(again.statusCode).toBe(400);
  });

  it("refuses a callback at another provider's address than the one the sign-in started with", async () => {
    psc.nextLogin = { subject: 'f:psc-sub-1', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const start = await client.get('/api/idp/psc/start');
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const res = await client.get(`/api/idp/franceconnect/callback?code=abc&state=${state}`);
    expect(res.statusCode).toBe(400);
    expect(client.cookies.has('hygie_session')).toBe(false);
  });

  it('refuses a transaction cookie that was tampered with', async () => {
    const client = new TestClient(t.app);
    const start = await client.get('/api/idp/psc/start');
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const sealed = client.cookies.get('hygie_idp') ?? '';
    const [iv = '', body = '', tag = ''] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    client.cookies.set('hygie_idp', [iv, flipped.toString('base64url'), tag].join('.'));
    const res = await client.get(`/api/idp/psc/callback?code=abc&state=${state}`);
    expect(res.statusCode).toBe(400);
  });

  it('refuses an expired transaction', async () => {
    const client = new TestClient(t.app);
    const start = await client.get('/api/idp/psc/start');
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    t.clock.advance(11 * 60_000);
    const res = await client.get(`/api/idp/psc/callback?code=abc&state=${state}`);
    expect(res.statusCode).toBe(400);
  });

  it('comes back with idp_error=cancelled when the person cancels at the provider', async () => {
    fc.nextLogin = 'cancel';
    const client = new TestClient(t.app);
    const { response } = await roundTrip(client, 'franceconnect');
    expect(response.headers.location).toBe(`${LOGIN}?idp_error=cancelled`);
    expect(await lastEvent('identity_provider_failed')).toMatchObject({
      details: { provider: 'franceconnect', reason: 'cancelled', step: 'authorization' },
    });
  });

  /** Answers the token call with an ID token the mock signs: its claims, with `override`. */
  function forgeTokens(override: Record<string, unknown>) {
    psc.tokenOverride = () => {
      const now = Math.floor(Date.now() / 1000);
      const idToken = psc.sign({
        iss: psc.issuer,
        aud: psc.clientId,
        sub: 'f:psc-sub-1',
        nonce: psc.lastAuthorization?.get('nonce'),
        acr: 'eidas1',
        iat: now,
        exp: now + 60,
        ...override,
      });
      return Promise.resolve({
        status: 200,
        body: { access_token: 'forged', token_type: 'Bearer', expires_in: 60, id_token: idToken },
      });
    };
  }

  it('accepts a hand-signed ID token with the right claims (the control of the next tests)', async () => {
    psc.nextLogin = { subject: 'f:psc-sub-1', acr: 'eidas1' };
    forgeTokens({});
    try {
      const client = new TestClient(t.app);
      const { response } = await roundTrip(client, 'psc');
      // The forged access token then fails at userinfo: refused there, after the ID token passed.
      expect(response.headers.location).toBe(`${LOGIN}?idp_error=refused`);
      expect(await lastEvent('identity_provider_failed')).toMatchObject({
        details: { provider: 'psc', reason: 'refused', step: 'userinfo' },
      });
    } finally {
      psc.tokenOverride = null;
    }
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example' }],
    ['another audience', { aud: 'someone-else' }],
    ['another nonce', { nonce: 'not-the-nonce' }],
  ])('refuses an ID token from %s', async (_label, override) => {
    psc.nextLogin = { subject: 'f:psc-sub-1', acr: 'eidas1' };
    forgeTokens(override);
    try {
      const client = new TestClient(t.app);
      const { response } = await roundTrip(client, 'psc');
      expect(response.headers.location).toBe(`${LOGIN}?idp_error=refused`);
      expect(client.cookies.has('hygie_session')).toBe(false);
      expect(await lastEvent('identity_provider_failed')).toMatchObject({
        details: { provider: 'psc', reason: 'refused', step: 'token' },
      });
    } finally {
      psc.tokenOverride = null;
    }
  });

  it('comes back with identity_provider_unavailable when the token call times out', async () => {
    psc.nextLogin = { subject: 'f:psc-sub-1', acr: 'eidas1' };
    psc.tokenOverride = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { status: 500, body: {} };
    };
    try {
      const client = new TestClient(t.app);
      const { response } = await roundTrip(client, 'psc', '?target_uri=%2Fdevices');
      // Back to the login page, the page asked for kept for the password or a retry.
      expect(response.headers.location).toBe(
        `${LOGIN}?idp_error=identity_provider_unavailable&target_uri=${encodeURIComponent(`${PORTAL}/devices`)}`,
      );
      expect(await lastEvent('identity_provider_failed')).toMatchObject({
        details: { provider: 'psc', reason: 'identity_provider_unavailable', step: 'token' },
      });
      // A program asking for JSON gets the 503 with Retry-After instead (once the provider's
      // failure back-off is over, for a start to reach it).
      t.clock.advance(FAILURE_BACKOFF_MS);
      const api = new TestClient(t.app);
      const start = await api.get('/api/idp/psc/start');
      const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
      const iss = encodeURIComponent(psc.issuer);
      const res = await api.get(`/api/idp/psc/callback?code=abc&state=${state}&iss=${iss}`, {
        accept: 'application/json',
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
    } finally {
      psc.tokenOverride = null;
    }
  });

  it('counts the outcomes by provider in the metrics', async () => {
    const { values } = await t.ctx.metrics.identityProviderSignIns.get();
    const count = (provider: string, outcome: string) =>
      values.find((v) => v.labels.provider === provider && v.labels.outcome === outcome)?.value;
    expect(count('psc', 'ok')).toBeGreaterThanOrEqual(1);
    expect(count('psc', 'not_linked')).toBe(1);
    expect(count('franceconnect', 'cancelled')).toBe(1);
    expect(count('psc', 'identity_provider_unavailable')).toBe(2);
  });

  it("forgets an account's links when the account is deleted, and links a subject once", async () => {
    const other = await createUser(t, { email: 'gone@hygie.test', password: 'Gone-Passw0rd-1' });
    await linkIdentity(t.ctx, 'franceconnect', 'fc-gone', other);
    await expect(linkIdentity(t.ctx, 'franceconnect', 'fc-gone', userId)).rejects.toThrow();
    await t.ctx.db.deleteFrom('users').where('id', '=', other).execute();
    const left = await t.ctx.db
      .selectFrom('identity_links')
      .select('subject')
      .where('user_id', '=', other)
      .execute();
    expect(left).toEqual([]);
  });

  it('answers 404 for a provider that is not configured', async () => {
    const res = await new TestClient(t.app).get('/api/idp/hospital/start');
    expect(res.statusCode).toBe(404);
  });
});

describe.each(DIALECTS)('identity providers unreachable (%s)', (dialect) => {
  let t: TestApp;
  let silent: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    silent = await startSilentServer();
    t = await createTestApp(dialect, {
      env: {
        // Nobody listens on PSC's port; FranceConnect's accepts and never answers.
        ...providerEnv('PSC', { issuer: `http://127.0.0.1:${await freePort()}`, clientId: 'p' }),
        ...providerEnv('FRANCECONNECT', { issuer: silent.url, clientId: 'f' }),
        IDP_TIMEOUT_MS: '300',
      },
    });
  });

  afterAll(async () => {
    await t.close();
    await silent.close();
  });

  it.each(['psc', 'franceconnect'])(
    'sends the browser back to the login page when %s is down or silent, audited',
    async (provider) => {
      const began = Date.now();
      const res = await new TestClient(t.app).get(`/api/idp/${provider}/start?target_uri=%2F`);
      expect(Date.now() - began).toBeLessThan(3000);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(
        `${LOGIN}?idp_error=identity_provider_unavailable&target_uri=${encodeURIComponent(`${PORTAL}/`)}`,
      );
      const event = await t.ctx.db
        .selectFrom('audit_events')
        .select('details')
        .where('action', '=', 'identity_provider_failed')
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(event.details ?? '{}')).toEqual({
        provider,
        reason: 'identity_provider_unavailable',
        step: 'discovery',
      });
    },
  );

  it('answers an API caller 503 identity_provider_unavailable with Retry-After', async () => {
    const res = await new TestClient(t.app).get('/api/idp/psc/start', {
      accept: 'application/json',
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json<{ code: string }>().code).toBe('identity_provider_unavailable');
  });
});
