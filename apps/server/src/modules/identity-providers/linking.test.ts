// Linking an upstream identity on first sign-in (issue #16, second slice): the unlinked identity
// waits in a sealed cookie while the person proves an account with the password sign-in; the
// link is made when that sign-in completes, only if the identity is the account's. Then the
// account area lists and removes links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';
import type { MockProvider } from './test-support.js';
import {
  callbackFromProvider,
  franceConnectClaims,
  PORTAL,
  providerEnv,
  pscClaims,
  startMockProvider,
} from './test-support.js';

const LOGIN = '/security/login';
const PASSWORD = 'Link-Passw0rd-1';

describe.each(DIALECTS)('linking provider identities (%s)', (dialect) => {
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

  async function professional(email: string, rpps: string, status?: 'pending_validation') {
    return createUser(t, {
      email,
      password: PASSWORD,
      phone: '+33612345678',
      profile: 'professional',
      professionalId: { type: 'RPPS', value: rpps },
      ...(status ? { status } : {}),
    });
  }

  /** Starts at the portal, signs in at the provider, and brings the browser back to the callback. */
  async function roundTrip(
    client: TestClient,
    provider: 'psc' | 'franceconnect',
  ): Promise<LightMyRequestResponse> {
    return client.get(await callbackFromProvider(client, provider));
  }

  /** An unlinked identity's sign-in: back at the login page in "link" mode, signed out. */
  async function unlinkedSignIn(provider: 'psc' | 'franceconnect', subject: string) {
    (provider === 'psc' ? psc : fc).nextLogin = { subject, acr: 'eidas1' };
    const client = new TestClient(t.app);
    const response = await roundTrip(client, provider);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(
      `${LOGIN}?idp_link=${provider}&redirect=${encodeURIComponent(`/devices?idp_link=${provider}`)}`,
    );
    expect(client.cookies.has('hygie_idp_link')).toBe(true);
    expect(client.cookies.has('hygie_session')).toBe(false);
    return client;
  }

  async function linksOf(userId: string) {
    return t.ctx.db
      .selectFrom('identity_links')
      .select(['provider', 'subject'])
      .where('user_id', '=', userId)
      .execute();
  }

  async function events(action: 'identity_linked' | 'identity_link_refused', userId: string) {
    const rows = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', action)
      .where('target_id', '=', userId)
      .execute();
    return rows.map((row): unknown => JSON.parse(row.details ?? '{}'));
  }

  it('links an unlinked PSC identity once the account is proven, then signs in directly', async () => {
    const userId = await professional('dr.link@hygie.test', '10000000011');
    psc.accounts.set('psc-link-1', pscClaims('10000000011'));
    const client = await unlinkedSignIn('psc', 'psc-link-1');
    // The identifier matches a validated account, yet nothing is linked before the proof.
    expect(await linksOf(userId)).toEqual([]);

    const res = await signIn(t, client, 'dr.link@hygie.test', PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(await linksOf(userId)).toEqual([{ provider: 'psc', subject: 'psc-link-1' }]);
    expect(await events('identity_linked', userId)).toEqual([{ provider: 'psc' }]);
    // Used once: the pending identity is forgotten by the browser.
    expect(client.cookies.has('hygie_idp_link')).toBe(false);
    const notice = (await messagesTo(t, 'dr.link@hygie.test')).find(
      (m) => m.template === 'identity_linked',
    );
    expect(notice?.params).toMatchObject({ provider: 'Pro Santé Connect' });
    // The person sees it in their own activity.
    const activity = await client.get('/api/me/activity');
    const actions = activity.json<{ items: { action: string }[] }>().items.map((e) => e.action);
    expect(actions).toContain('identity_linked');

    psc.nextLogin = { subject: 'psc-link-1', acr: 'eidas1' };
    const next = new TestClient(t.app);
    const again = await roundTrip(next, 'psc');
    expect(again.headers.location).toBe('/');
    const me = await next.get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json<{ id: string }>().id).toBe(userId);
  });

  it('links nothing when the RPPS is not the account’s', async () => {
    const userId = await professional('dr.other@hygie.test', '10000000022');
    psc.accounts.set('psc-link-2', pscClaims('10000000099'));
    const client = await unlinkedSignIn('psc', 'psc-link-2');
    const res = await signIn(t, client, 'dr.other@hygie.test', PASSWORD);
    // The sign-in itself stands; only the link is refused.
    expect(res.statusCode).toBe(200);
    expect(await linksOf(userId)).toEqual([]);
    expect(await events('identity_link_refused', userId)).toEqual([
      { provider: 'psc', reason: 'rpps_mismatch' },
    ]);
    expect(client.cookies.has('hygie_idp_link')).toBe(false);
  });

  it('links a FranceConnect identity whose pivot matches the INS traits', async () => {
    const userId = await createUser(t, {
      email: 'jeanne.fc@hygie.test',
      password: PASSWORD,
      phone: '+33612345679',
    });
    // Stored traits: Jeanne MARTIN, 1980-05-17, female, 75056; written differently by FC.
    fc.accounts.set('fc-link-1', {
      ...franceConnectClaims(),
      given_name: 'jeanne',
      family_name: 'MARTIN',
    });
    const client = await unlinkedSignIn('franceconnect', 'fc-link-1');
    expect((await signIn(t, client, 'jeanne.fc@hygie.test', PASSWORD)).statusCode).toBe(200);
    expect(await linksOf(userId)).toEqual([{ provider: 'franceconnect', subject: 'fc-link-1' }]);
  });

  it.each([
    ['another birth date', { birthdate: '1980-05-18' }],
    ['another first name list', { given_name: 'Jeanne Marie' }],
    ['another birthplace', { birthplace: '69123' }],
    ['no gender', { gender: undefined }],
  ])('links no FranceConnect identity with %s', async (_label, override) => {
    const email = `fc.mismatch.${Object.keys(override).join()}@hygie.test`;
    const userId = await createUser(t, { email, password: PASSWORD, phone: '+33612345670' });
    const subject = `fc-mismatch-${Object.keys(override).join()}`;
    fc.accounts.set(subject, { ...franceConnectClaims(), given_name: 'Jeanne', ...override });
    const client = await unlinkedSignIn('franceconnect', subject);
    expect((await signIn(t, client, email, PASSWORD)).statusCode).toBe(200);
    expect(await linksOf(userId)).toEqual([]);
    expect(await events('identity_link_refused', userId)).toEqual([
      { provider: 'franceconnect', reason: 'traits_mismatch' },
    ]);
  });

  it('links nothing once the pending identity has expired', async () => {
    const userId = await professional('dr.late@hygie.test', '10000000033');
    psc.accounts.set('psc-late', pscClaims('10000000033'));
    const client = await unlinkedSignIn('psc', 'psc-late');
    t.clock.advance(20 * 60_000);
    expect((await signIn(t, client, 'dr.late@hygie.test', PASSWORD)).statusCode).toBe(200);
    expect(await linksOf(userId)).toEqual([]);
    expect(await events('identity_link_refused', userId)).toEqual([
      { provider: 'psc', reason: 'expired' },
    ]);
  });

  it('takes no provider sign-in as the proof: the pending identity waits for a password', async () => {
    const userId = await professional('dr.both@hygie.test', '10000000077');
    psc.accounts.set('psc-both', pscClaims('10000000077'));
    fc.accounts.set('fc-both', { ...franceConnectClaims(), given_name: 'Jeanne' });
    await t.ctx.db
      .insertInto('identity_links')
      .values({
        provider: 'franceconnect',
        subject: 'fc-both',
        user_id: userId,
        created_at: t.clock.now(),
        last_used_at: null,
      })
      .execute();
    const client = await unlinkedSignIn('psc', 'psc-both');
    // Signed in through the linked FranceConnect identity (FranceConnect+: both factors).
    fc.nextLogin = { subject: 'fc-both', acr: 'eidas2' };
    const viaProvider = await roundTrip(client, 'franceconnect');
    expect(viaProvider.headers.location).toBe('/');
    expect((await client.get('/api/me')).statusCode).toBe(200);
    expect(await linksOf(userId)).toEqual([{ provider: 'franceconnect', subject: 'fc-both' }]);
    expect(await events('identity_link_refused', userId)).toEqual([]);
  });

  it('ignores a pending identity cookie that was tampered with', async () => {
    const userId = await professional('dr.forged@hygie.test', '10000000044');
    psc.accounts.set('psc-forged', pscClaims('10000000044'));
    const client = await unlinkedSignIn('psc', 'psc-forged');
    const [iv = '', body = '', tag = ''] = (client.cookies.get('hygie_idp_link') ?? '').split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    client.cookies.set('hygie_idp_link', [iv, flipped.toString('base64url'), tag].join('.'));
    expect((await signIn(t, client, 'dr.forged@hygie.test', PASSWORD)).statusCode).toBe(200);
    expect(await linksOf(userId)).toEqual([]);
  });

  it('lists the links and removes one after a recent proof; parallel removals: one 200, one 404', async () => {
    const userId = await professional('dr.list@hygie.test', '10000000055');
    psc.accounts.set('psc-list', pscClaims('10000000055'));
    const client = await unlinkedSignIn('psc', 'psc-list');
    await signIn(t, client, 'dr.list@hygie.test', PASSWORD);
    const linkedAt = t.clock.now();

    const list = await client.get('/api/me/identity-links');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ links: [{ provider: 'psc', linkedAt, lastUsedAt: null }] });
    expect((await new TestClient(t.app).get('/api/me/identity-links')).statusCode).toBe(401);

    // A proof older than the step-up window: reauthenticate first.
    t.clock.advance(6 * 60_000);
    const stale = await client.request({ method: 'DELETE', url: '/api/me/identity-links/psc' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json<{ code: string }>().code).toBe('reauthentication_required');
    const reauth = await client.post('/api/session/reauthenticate', { password: PASSWORD });
    expect(reauth.statusCode).toBe(200);

    const [a, b] = await Promise.all([
      client.request({ method: 'DELETE', url: '/api/me/identity-links/psc' }),
      client.request({ method: 'DELETE', url: '/api/me/identity-links/psc' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 404]);
    expect(await linksOf(userId)).toEqual([]);
    const unlinked = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'identity_unlinked')
      .where('target_id', '=', userId)
      .execute();
    expect(unlinked.map((row): unknown => JSON.parse(row.details ?? '{}'))).toEqual([
      { provider: 'psc' },
    ]);
    const templates = (await messagesTo(t, 'dr.list@hygie.test')).map((m) => m.template);
    expect(templates.filter((name) => name === 'identity_unlinked')).toHaveLength(1);
  });

  it('refuses to remove the last way to sign in of an account without a password (409)', async () => {
    const userId = await professional('dr.nopass@hygie.test', '10000000066');
    psc.accounts.set('psc-nopass', pscClaims('10000000066'));
    const client = await unlinkedSignIn('psc', 'psc-nopass');
    await signIn(t, client, 'dr.nopass@hygie.test', PASSWORD);
    await t.ctx.db
      .updateTable('users')
      .set({ password_hash: null })
      .where('id', '=', userId)
      .execute();
    const res = await client.request({ method: 'DELETE', url: '/api/me/identity-links/psc' });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ code: string }>().code).toBe('last_sign_in_method');
    expect(await linksOf(userId)).toEqual([{ provider: 'psc', subject: 'psc-nopass' }]);
  });

  it('keeps one link when an account without a password removes its two at once', async () => {
    const userId = await professional('dr.two@hygie.test', '10000000088');
    const client = new TestClient(t.app);
    expect((await signIn(t, client, 'dr.two@hygie.test', PASSWORD)).statusCode).toBe(200);
    for (const provider of ['psc', 'franceconnect']) {
      await t.ctx.db
        .insertInto('identity_links')
        .values({
          provider,
          subject: `two-${provider}`,
          user_id: userId,
          created_at: t.clock.now(),
          last_used_at: null,
        })
        .execute();
    }
    await t.ctx.db
      .updateTable('users')
      .set({ password_hash: null })
      .where('id', '=', userId)
      .execute();
    const [a, b] = await Promise.all([
      client.request({ method: 'DELETE', url: '/api/me/identity-links/psc' }),
      client.request({ method: 'DELETE', url: '/api/me/identity-links/franceconnect' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await linksOf(userId)).toHaveLength(1);
  });
});
