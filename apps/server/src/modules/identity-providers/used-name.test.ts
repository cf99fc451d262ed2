// FranceConnect's `preferred_username` is the used family name (nom d'usage): it becomes the
// patient's `lastNameUsed` when a registration is pre-filled from FranceConnect, or when linking
// fills an empty one — only when it differs from the birth name (issue #16).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { findUserByEmail } from '../users/service.js';
import { Browser } from '../oidc/test-support.js';
import { mapClaims } from './claims.js';
import { usedFamilyNameOf } from './prefill.js';
import type { MockProvider } from './test-support.js';
import {
  CLIENT_SECRET,
  franceConnectClaims,
  PORTAL,
  pscClaims,
  startMockProvider,
} from './test-support.js';

const PASSWORD = 'Lagon-Ventoux-2026!';

describe('the used family name FranceConnect asserts', () => {
  const fc = (claims: Record<string, unknown>) => mapClaims('franceconnect', 'sub', claims);

  it('is preferred_username when it is not the birth name', () => {
    const identity = fc({ ...franceConnectClaims(), preferred_username: 'Durand' });
    expect(identity?.pivot?.usedFamilyName).toBe('Durand');
    expect(identity && usedFamilyNameOf(identity)).toBe('Durand');
  });

  it('is none when preferred_username is the birth name, however written, or absent', () => {
    for (const used of ['Martin', 'MARTIN', ' martin ', '', undefined]) {
      const identity = fc({ ...franceConnectClaims(), preferred_username: used });
      expect(identity && usedFamilyNameOf(identity)).toBeNull();
    }
  });

  it("is never Pro Santé Connect's preferred_username (its national id)", () => {
    const identity = mapClaims('psc', 'sub', pscClaims('10001234567'));
    expect(identity && usedFamilyNameOf(identity)).toBeNull();
  });
});

describe.each(DIALECTS)('used family name from FranceConnect (%s)', (dialect) => {
  let t: TestApp;
  let fc: MockProvider;
  const terms = { cguVersion: '', cguHash: '' };

  beforeAll(async () => {
    fc = await startMockProvider('franceconnect', `${PORTAL}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: {
        FRANCECONNECT_ISSUER: fc.issuer,
        FRANCECONNECT_CLIENT_ID: fc.clientId,
        FRANCECONNECT_CLIENT_SECRET: CLIENT_SECRET,
      },
    });
    const shown = (await new TestClient(t.app).get('/api/cgu')).json<{
      version: string;
      hash: string;
    }>();
    Object.assign(terms, { cguVersion: shown.version, cguHash: shown.hash });
  });

  afterAll(async () => {
    await t.close();
    await fc.close();
  });

  /** An identity unknown to the portal comes back from FranceConnect: its pending cookie. */
  async function pendingBrowser(subject: string, claims: Record<string, unknown>) {
    fc.accounts.set(subject, claims);
    fc.nextLogin = { subject, acr: 'eidas1' };
    const client = new TestClient(t.app);
    const start = await client.get('/api/idp/franceconnect/start');
    let location = String(start.headers.location);
    const atProvider = new Browser();
    for (let hop = 0; hop < 10 && !location.startsWith(PORTAL); hop++) {
      const res = await atProvider.get(location);
      location = new URL(res.headers.get('location') ?? '', res.url).href;
    }
    const back = await client.get(location.slice(PORTAL.length));
    expect(String(back.headers.location)).toContain('idp_link=franceconnect');
    return client;
  }

  function registration(email: string, lastNameUsed?: string) {
    return {
      type: 'patient',
      email,
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      acceptCgu: true,
      ...terms,
      firstName: 'Jeanne Marie',
      lastName: 'Martin',
      birthDate: '17/05/1980',
      birthPlaceInsee: '75056',
      sex: 'female',
      phone: '06 12 34 56 78',
      fromIdentityProvider: 'franceconnect',
      ...(lastNameUsed ? { lastNameUsed } : {}),
    };
  }

  it('pre-fills and registers the used name FranceConnect asserts, whatever the body says', async () => {
    const client = await pendingBrowser('fc-used-1', {
      ...franceConnectClaims(),
      preferred_username: 'Durand',
    });
    const pending = await client.get('/api/idp/pending');
    expect(pending.json<{ asserted: { lastNameUsed: unknown } }>().asserted).toMatchObject({
      lastName: 'Martin',
      birthName: 'Martin',
      lastNameUsed: 'Durand',
    });
    const res = await client.post(
      '/api/register',
      registration('used.name@hygie.test', 'Autrement'),
    );
    expect(res.statusCode, res.body).toBe(201);
    const user = await findUserByEmail(t.ctx.db, 'used.name@hygie.test');
    expect(user).toMatchObject({
      last_name: 'Martin',
      birth_name: 'Martin',
      last_name_used: 'Durand',
    });
  });

  it('asserts no used name when it is the birth name: the one typed stands', async () => {
    const client = await pendingBrowser('fc-used-2', franceConnectClaims());
    const pending = await client.get('/api/idp/pending');
    expect(
      pending.json<{ asserted: { lastNameUsed: unknown } }>().asserted.lastNameUsed,
    ).toBeNull();
    const res = await client.post('/api/register', registration('no.used@hygie.test', 'Typed'));
    expect(res.statusCode).toBe(201);
    const user = await findUserByEmail(t.ctx.db, 'no.used@hygie.test');
    expect(user?.last_name_used).toBe('Typed');
  });

  async function linkedEvents(userId: string) {
    const rows = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'identity_linked')
      .where('target_id', '=', userId)
      .execute();
    return rows.map((row): unknown => JSON.parse(row.details ?? '{}'));
  }

  it('fills an empty used name when linking, and leaves one the patient gave alone', async () => {
    const claims = { ...franceConnectClaims(), given_name: 'Jeanne', preferred_username: 'Durand' };
    const empty = await createUser(t, {
      email: 'link.used@hygie.test',
      password: PASSWORD,
      phone: '+33612345681',
    });
    const first = await pendingBrowser('fc-used-3', claims);
    const proven = await signIn(t, first, 'link.used@hygie.test', PASSWORD);
    expect(proven.statusCode, proven.body).toBe(200);
    const filled = await findUserByEmail(t.ctx.db, 'link.used@hygie.test');
    expect(filled?.last_name_used).toBe('Durand');
    expect(await linkedEvents(empty)).toEqual([
      { provider: 'franceconnect', filled: ['lastNameUsed'] },
    ]);

    const given = await createUser(t, {
      email: 'link.given@hygie.test',
      password: PASSWORD,
      phone: '+33612345682',
    });
    await t.ctx.db
      .updateTable('users')
      .set({ last_name_used: 'Lemoine' })
      .where('id', '=', given)
      .execute();
    const second = await pendingBrowser('fc-used-4', claims);
    expect((await signIn(t, second, 'link.given@hygie.test', PASSWORD)).statusCode).toBe(200);
    const kept = await findUserByEmail(t.ctx.db, 'link.given@hygie.test');
    expect(kept?.last_name_used).toBe('Lemoine');
    expect(await linkedEvents(given)).toEqual([{ provider: 'franceconnect' }]);
  });
});
