// A provider that just failed is left alone for a short window (issue #16): starts answer
// identity_provider_unavailable at once with the time left, one audit row per window, the
// metrics still counted. The clock is the app's: the tests move it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, TestClient } from '../../test/helpers.js';
import { Browser } from '../oidc/test-support.js';
import { linkIdentity } from './service.js';
import { FAILURE_BACKOFF_MS, forgetConfiguration } from './upstream.js';
import type { MockProvider } from './test-support.js';
import {
  franceConnectClaims,
  PORTAL,
  linkedProfessional,
  providerEnv,
  startMockProvider,
} from './test-support.js';

const UNAVAILABLE = '/security/login?idp_error=identity_provider_unavailable';

describe.each(DIALECTS)('failure back-off of a provider (%s)', (dialect) => {
  let t: TestApp;
  let psc: MockProvider;
  let fc: MockProvider;

  beforeAll(async () => {
    psc = await startMockProvider('psc', `${PORTAL}/api/idp/psc/callback`);
    fc = await startMockProvider('franceconnect', `${PORTAL}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: {
        ...providerEnv('PSC', psc),
        ...providerEnv('FRANCECONNECT', fc),
        FRANCECONNECT_ACR_VALUES: 'eidas2',
        IDP_TIMEOUT_MS: '1000',
      },
    });
    const userId = await linkedProfessional(t, psc, {
      email: 'backoff@hygie.test',
      password: 'Idp-Passw0rd-1',
      phone: '+33612345670',
      subject: 'psc-backoff',
    });
    fc.accounts.set('fc-backoff', franceConnectClaims());
    await linkIdentity(t.ctx, 'franceconnect', 'fc-backoff', userId);
  });

  afterAll(async () => {
    await t.close();
    await psc.close();
    await fc.close();
  });

  /** The unavailability audit rows of a provider, oldest first. */
  async function unavailabilityRows(provider: string) {
    const rows = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'identity_provider_failed')
      .orderBy('at')
      .orderBy('id')
      .execute();
    return rows
      .map((row): unknown => JSON.parse(row.details ?? '{}'))
      .filter(
        (d) =>
          typeof d === 'object' &&
          d !== null &&
          'provider' in d &&
          d.provider === provider &&
          'reason' in d &&
          d.reason === 'identity_provider_unavailable',
      );
  }

  async function unavailableCount(provider: string): Promise<number> {
    const { values } = await t.ctx.metrics.identityProviderSignIns.get();
    return (
      values.find(
        (v) =>
          v.labels.provider === provider && v.labels.outcome === 'identity_provider_unavailable',
      )?.value ?? 0
    );
  }

  /** The provider fails its next discovery (its metadata forgotten, then down). */
  function failNextDiscovery(mock: MockProvider, id: string) {
    forgetConfiguration(t.ctx, id);
    mock.down = true;
  }

  it('answers starts within the window at once, without asking the provider, with the time left', async () => {
    failNextDiscovery(psc, 'psc');
    const first = await new TestClient(t.app).get('/api/idp/psc/start');
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(UNAVAILABLE);
    expect(await unavailabilityRows('psc')).toEqual([
      { provider: 'psc', reason: 'identity_provider_unavailable', step: 'discovery' },
    ]);

    // Back up, but within the window: nobody asks it, the audit trail gets no second row.
    psc.down = false;
    const before = psc.requests;
    const metricBefore = await unavailableCount('psc');
    t.clock.advance(10_000);
    const browser = await new TestClient(t.app).get('/api/idp/psc/start');
    expect(browser.headers.location).toBe(UNAVAILABLE);
    const api = await new TestClient(t.app).get('/api/idp/psc/start', {
      accept: 'application/json',
    });
    expect(api.statusCode).toBe(503);
    expect(api.json<{ code: string }>().code).toBe('identity_provider_unavailable');
    expect(api.headers['retry-after']).toBe(String((FAILURE_BACKOFF_MS - 10_000) / 1000));
    expect(psc.requests).toBe(before);
    expect(await unavailabilityRows('psc')).toHaveLength(1);
    // Every answer still counts in the metrics.
    expect(await unavailableCount('psc')).toBe(metricBefore + 2);
    // The other provider is not concerned.
    const other = await new TestClient(t.app).get('/api/idp/franceconnect/start');
    expect(other.statusCode).toBe(302);

    // Past the window, the provider is asked again.
    t.clock.advance(FAILURE_BACKOFF_MS - 10_000);
    const retried = await new TestClient(t.app).get('/api/idp/psc/start');
    expect(retried.statusCode).toBe(302);
    expect(String(retried.headers.location).startsWith(psc.issuer)).toBe(true);
    expect(psc.requests).toBeGreaterThan(before);
  });

  it('opens a new window, with its own audit row, at the next failure after one ended', async () => {
    failNextDiscovery(psc, 'psc');
    try {
      const res = await new TestClient(t.app).get('/api/idp/psc/start');
      expect(res.headers.location).toBe(UNAVAILABLE);
      expect(await unavailabilityRows('psc')).toHaveLength(2);
    } finally {
      psc.down = false;
      t.clock.advance(FAILURE_BACKOFF_MS);
    }
  });

  it('still exchanges the code of a person who comes back from the provider during a window', async () => {
    psc.nextLogin = { subject: 'psc-backoff', acr: 'eidas1' };
    const client = new TestClient(t.app);
    const start = await client.get('/api/idp/psc/start');
    expect(start.statusCode).toBe(302);
    // While the person is at the provider, another start finds it down: a window opens.
    failNextDiscovery(psc, 'psc');
    await new TestClient(t.app).get('/api/idp/psc/start');
    psc.down = false;
    let location = String(start.headers.location);
    const atProvider = new Browser();
    for (let hop = 0; hop < 10 && !location.startsWith(PORTAL); hop++) {
      const res = await atProvider.get(location);
      location = new URL(res.headers.get('location') ?? '', res.url).href;
    }
    const callback = await client.get(location.slice(PORTAL.length));
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/');
    expect((await client.get('/api/me')).statusCode).toBe(200);
    t.clock.advance(FAILURE_BACKOFF_MS);
  });

  it("skips the provider's logout during its window, and a logout's failure opens one", async () => {
    fc.nextLogin = { subject: 'fc-backoff', acr: 'eidas2' };
    const signIn = async () => {
      const client = new TestClient(t.app);
      const start = await client.get('/api/idp/franceconnect/start');
      let location = String(start.headers.location);
      const atProvider = new Browser();
      for (let hop = 0; hop < 10 && !location.startsWith(PORTAL); hop++) {
        const res = await atProvider.get(location);
        location = new URL(res.headers.get('location') ?? '', res.url).href;
      }
      await client.get(location.slice(PORTAL.length));
      expect((await client.get('/api/me')).statusCode).toBe(200);
      return client;
    };

    // The logout needs the provider's metadata, and the provider is down: the logout completes,
    // the failure is audited (as a logout's) and opens the window.
    const first = await signIn();
    failNextDiscovery(fc, 'franceconnect');
    const metricBefore = await unavailableCount('franceconnect');
    const res = await first.get('/api/logout');
    expect(res.headers.location).toBe(`${PORTAL}/security/login`);
    expect(await unavailabilityRows('franceconnect')).toEqual([
      {
        provider: 'franceconnect',
        reason: 'identity_provider_unavailable',
        step: 'discovery',
        flow: 'logout',
      },
    ]);
    // No sign-in failed: the sign-in metrics do not count it.
    expect(await unavailableCount('franceconnect')).toBe(metricBefore);

    // Back up and known again, but within the window: the logout does not send the browser there.
    fc.down = false;
    t.clock.advance(FAILURE_BACKOFF_MS);
    const second = await signIn();
    failNextDiscovery(fc, 'franceconnect');
    await new TestClient(t.app).get('/api/idp/franceconnect/start');
    fc.down = false;
    const skipped = await second.get('/api/logout');
    expect(skipped.headers.location).toBe(`${PORTAL}/security/login`);
    expect((await second.get('/api/me')).statusCode).toBe(401);
  });
});
