// Levels of assurance through upstream providers (issue #20, item 3): the session records the
// provider's acr, so FranceConnect+ eidas2 and Pro Santé Connect's e-CPS are substantial,
// FranceConnect+ eidas3 and PSC's CPS card high; and a linked provider raises a password session
// (the step-up), never with another account's identity. Mock providers as in the
// identity-providers tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Assurance } from '@hygie/domain';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { linkIdentity } from '../identity-providers/service.js';
import type { MockProvider } from '../identity-providers/test-support.js';
import {
  callbackFromProvider,
  franceConnectClaims,
  PORTAL,
  providerEnv,
  pscClaims,
  startMockProvider,
} from '../identity-providers/test-support.js';

describe.each(DIALECTS)('levels of upstream sign-ins (%s)', (dialect) => {
  let t: TestApp;
  let psc: MockProvider;
  let fc: MockProvider;
  let professional: string;
  let other: string;
  const password = 'Level-Passw0rd-1';

  beforeAll(async () => {
    psc = await startMockProvider('psc', `${PORTAL}/api/idp/psc/callback`);
    fc = await startMockProvider('franceconnect', `${PORTAL}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: {
        ...providerEnv('PSC', psc),
        ...providerEnv('FRANCECONNECT', fc),
        // FranceConnect+: both levels asked for.
        FRANCECONNECT_ACR_VALUES: 'eidas2 eidas3',
        PSC_ACR_VALUES: 'eidas1 eidas3',
        IDP_TIMEOUT_MS: '1000',
      },
    });
    professional = await createUser(t, {
      email: 'dr.level@hygie.test',
      password,
      phone: '+33612345688',
      profile: 'professional',
      professionalId: { type: 'RPPS', value: '10001234567' },
    });
    other = await createUser(t, {
      email: 'dr.other@hygie.test',
      password,
      phone: '+33612345689',
      profile: 'professional',
      professionalId: { type: 'RPPS', value: '10009999999' },
    });
    psc.accounts.set('f:psc-level', pscClaims('10001234567'));
    psc.accounts.set('f:psc-other', pscClaims('10009999999', 'Paul', 'Autre'));
    fc.accounts.set('fc-level', franceConnectClaims());
    await linkIdentity(t.ctx, 'psc', 'f:psc-level', professional);
    await linkIdentity(t.ctx, 'psc', 'f:psc-other', other);
    await linkIdentity(t.ctx, 'franceconnect', 'fc-level', professional);
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
  ): Promise<LightMyRequestResponse> {
    return client.get(await callbackFromProvider(client, provider, query));
  }

  it.each([
    ['franceconnect', 'fc-level', 'eidas2', 'substantial'],
    ['franceconnect', 'fc-level', 'eidas3', 'high'],
    ['psc', 'f:psc-level', 'eidas1', 'substantial'], // the e-CPS app
    ['psc', 'f:psc-level', 'eidas3', 'high'], // the CPS card
  ] as const)('%s at %s: %s', async (provider, subject, acr, level) => {
    t.clock.advance(1000);
    (provider === 'psc' ? psc : fc).nextLogin = { subject, acr };
    const client = new TestClient(t.app);
    const response = await roundTrip(client, provider);
    expect(response.statusCode).toBe(303);
    const assurance = (await client.get('/api/me/assurance')).json<Assurance>();
    expect(assurance).toMatchObject({ level, amr: ['ext', 'mfa'] });
    const row = await t.ctx.db
      .selectFrom('sessions')
      .select('upstream_acr')
      .where('user_id', '=', professional)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.upstream_acr).toBe(`${provider}:${acr}`);
  });

  it('raises a password session through the linked provider, never with another account’s identity', async () => {
    t.clock.advance(60_000);
    const client = new TestClient(t.app);
    expect((await signIn(t, client, 'dr.level@hygie.test', password)).statusCode).toBe(200);
    const offered = (await client.get('/api/me/assurance?level=high')).json<Assurance>();
    expect(offered).toMatchObject({ level: 'low', reached: false });
    // Both providers may answer eidas3 here: linked, they are means; the app and passkeys are not.
    expect(offered.means).toEqual([
      { kind: 'provider', id: 'psc', name: 'Pro Santé Connect' },
      { kind: 'provider', id: 'franceconnect', name: 'FranceConnect+' },
    ]);
    expect(offered.enrolment).toEqual([]);

    // Another professional's PSC identity: the session stays as it was.
    psc.nextLogin = { subject: 'f:psc-other', acr: 'eidas3' };
    const target = encodeURIComponent('http://localhost:3000/oidc/interaction/abc');
    const refused = await roundTrip(
      client,
      'psc',
      `?intent=step_up&level=high&target_uri=${target}`,
    );
    expect(refused.statusCode).toBe(303);
    const back = new URL(String(refused.headers.location), PORTAL);
    expect(back.pathname).toBe('/security/step-up');
    expect(back.searchParams.get('idp_error')).toBe('not_linked');
    expect(back.searchParams.get('level')).toBe('high');
    expect(back.searchParams.get('target_uri')).toBe('http://localhost:3000/oidc/interaction/abc');
    expect((await client.get('/api/me/assurance')).json()).toMatchObject({ level: 'low' });

    // Their own: the session gains the provider and its acr, and goes on to the target.
    psc.nextLogin = { subject: 'f:psc-level', acr: 'eidas3' };
    const raised = await roundTrip(
      client,
      'psc',
      `?intent=step_up&level=high&target_uri=${target}`,
    );
    expect(raised.statusCode).toBe(303);
    expect(raised.headers.location).toBe('http://localhost:3000/oidc/interaction/abc');
    expect((await client.get('/api/me/assurance')).json()).toMatchObject({
      level: 'high',
      amr: ['pwd', 'otp', 'ext', 'mfa'],
    });
    expect((await client.get('/api/me')).json()).toMatchObject({ id: professional });
  });
});
