// A provider sign-in started from the registration choice screen (`intent=register`, issue #16):
// an identity linked to no account lands in the registration pre-filled with it; a failure comes
// back to the choice screen; a linked identity simply signs its account in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, TestClient } from '../../test/helpers.js';
import { freePort } from '../oidc/test-support.js';
import type { MockProvider } from './test-support.js';
import {
  callbackFromProvider,
  franceConnectClaims,
  linkedProfessional,
  PORTAL,
  providerEnv,
  pscClaims,
  startMockProvider,
} from './test-support.js';

describe.each(DIALECTS)('provider sign-in started to register (%s)', (dialect) => {
  let t: TestApp;
  let psc: MockProvider;
  let fc: MockProvider;

  beforeAll(async () => {
    psc = await startMockProvider('psc', `${PORTAL}/api/idp/psc/callback`);
    fc = await startMockProvider('franceconnect', `${PORTAL}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: { ...providerEnv('PSC', psc), ...providerEnv('FRANCECONNECT', fc) },
    });
  });

  afterAll(async () => {
    await t.close();
    await psc.close();
    await fc.close();
  });

  /** Starts at the portal with `query`, goes through the provider, and comes back to the callback. */
  async function roundTrip(
    client: TestClient,
    provider: 'psc' | 'franceconnect',
    query: string,
  ): Promise<LightMyRequestResponse> {
    return client.get(await callbackFromProvider(client, provider, query));
  }

  it('sends an unknown PSC professional to the professional registration pre-filled with it', async () => {
    psc.accounts.set('psc-register-1', pscClaims('10101210002', 'Jean', 'Dupont'));
    psc.nextLogin = { subject: 'psc-register-1', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const res = await roundTrip(client, 'psc', '?intent=register');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/security/register/professional?idp=psc');
    // The identity waits in this browser, as for the login page's link mode.
    expect(client.cookies.has('hygie_idp_link')).toBe(true);
    const pending = await client.get('/api/idp/pending');
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({
      provider: 'psc',
      profile: 'professional',
      asserted: { identifier: { type: 'RPPS', value: '10101210002' }, lastName: 'Dupont' },
    });
  });

  it('sends an unknown FranceConnect patient to the patient registration pre-filled with it', async () => {
    fc.accounts.set('fc-register-1', franceConnectClaims());
    fc.nextLogin = { subject: 'fc-register-1', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const res = await roundTrip(client, 'franceconnect', '?intent=register');
    expect(res.headers.location).toBe('/security/register/patient?idp=franceconnect');
    const pending = await client.get('/api/idp/pending');
    expect(pending.json()).toMatchObject({
      provider: 'franceconnect',
      profile: 'patient',
      asserted: { birthDate: '17/05/1980', sex: 'female', birthPlaceInsee: '75056' },
    });
  });

  it('keeps the login page’s link mode for a sign-in started to sign in', async () => {
    psc.accounts.set('psc-register-2', pscClaims('10101210010', 'Anne', 'Roux'));
    psc.nextLogin = { subject: 'psc-register-2', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const res = await roundTrip(client, 'psc', '?intent=sign_in');
    expect(String(res.headers.location)).toMatch(/^\/security\/login\?idp_link=psc&/);
  });

  it('signs a linked identity in, even when started to register', async () => {
    await linkedProfessional(t, psc, {
      email: 'dr.linked.register@hygie.test',
      password: 'Register-Intent-1',
      phone: '+33612340001',
      subject: 'psc-register-linked',
    });
    psc.nextLogin = { subject: 'psc-register-linked', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const res = await roundTrip(client, 'psc', '?intent=register');
    expect(res.headers.location).toBe('/');
    expect(client.cookies.has('hygie_idp_link')).toBe(false);
    const me = await client.get('/api/me');
    expect(me.json<{ email: string }>().email).toBe('dr.linked.register@hygie.test');
  });

  it('comes back to the registration choice screen when the person cancels at the provider', async () => {
    fc.nextLogin = 'cancel';
    const res = await roundTrip(new TestClient(t.app), 'franceconnect', '?intent=register');
    expect(res.headers.location).toBe('/security/register?idp_error=cancelled');
  });

  it('refuses an intent it does not know (400, nothing started)', async () => {
    const client = new TestClient(t.app);
    const res = await client.get('/api/idp/psc/start?intent=admin');
    expect(res.statusCode).toBe(400);
    expect(client.cookies.has('hygie_idp')).toBe(false);
  });
});

describe.each(DIALECTS)('provider down, sign-in started to register (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: {
        ...providerEnv('PSC', { issuer: `http://127.0.0.1:${await freePort()}`, clientId: 'p' }),
        IDP_TIMEOUT_MS: '300',
      },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('comes back to the registration choice screen with identity_provider_unavailable', async () => {
    const res = await new TestClient(t.app).get('/api/idp/psc/start?intent=register');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/security/register?idp_error=identity_provider_unavailable');
  });
});
