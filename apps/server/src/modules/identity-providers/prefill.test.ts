// Registration pre-filled from a provider (issue #16, third slice): an unknown identity registers
// with what the provider asserted, taken from the sealed pending cookie, never from the body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, lastCode, TestClient } from '../../test/helpers.js';
import { findUserByEmail } from '../users/service.js';
import type { MockProvider } from './test-support.js';
import {
  callbackFromProvider,
  franceConnectClaims,
  PORTAL,
  providerEnv,
  pscClaims,
  startMockProvider,
} from './test-support.js';

const PASSWORD = 'Prefill-Passw0rd-1';
const TERMS = { cguVersion: '', cguHash: '' };

/** A registration body whose person fields try to say something else than the provider. */
function body(type: 'patient' | 'professional', email: string, provider: string | undefined) {
  return {
    type,
    email,
    password: PASSWORD,
    passwordConfirmation: PASSWORD,
    acceptCgu: true,
    ...TERMS,
    firstName: 'Mallory',
    lastName: 'Forger',
    birthDate: '01/01/1990',
    birthPlaceInsee: '69123',
    sex: 'male',
    phone: '06 12 34 56 78',
    ...(type === 'professional'
      ? { identifier: { type: 'RPPS', value: '10101215225' }, job: 'Infirmier' }
      : {}),
    ...(provider ? { fromIdentityProvider: provider } : {}),
  };
}

describe.each(DIALECTS)('registration from a provider identity (%s)', (dialect) => {
  let t: TestApp;
  let psc: MockProvider;
  let fc: MockProvider;

  beforeAll(async () => {
    psc = await startMockProvider('psc', `${PORTAL}/api/idp/psc/callback`);
    fc = await startMockProvider('franceconnect', `${PORTAL}/api/idp/franceconnect/callback`);
    t = await createTestApp(dialect, {
      env: { ...providerEnv('PSC', psc), ...providerEnv('FRANCECONNECT', fc) },
    });
    const terms = (await new TestClient(t.app).get('/api/cgu')).json<{
      version: string;
      hash: string;
    }>();
    Object.assign(TERMS, { cguVersion: terms.version, cguHash: terms.hash });
  });

  afterAll(async () => {
    await t.close();
    await psc.close();
    await fc.close();
  });

  async function roundTrip(
    client: TestClient,
    provider: 'psc' | 'franceconnect',
  ): Promise<LightMyRequestResponse> {
    return client.get(await callbackFromProvider(client, provider));
  }

  /** An unknown identity comes back from the provider: a browser holding the pending cookie. */
  async function pendingBrowser(provider: 'psc' | 'franceconnect', subject: string) {
    (provider === 'psc' ? psc : fc).nextLogin = { subject, acr: 'eidas1' };
    const client = new TestClient(t.app);
    const res = await roundTrip(client, provider);
    expect(String(res.headers.location)).toContain(`idp_link=${provider}`);
    expect(client.cookies.has('hygie_idp_link')).toBe(true);
    return client;
  }

  async function linksOf(userId: string) {
    return t.ctx.db
      .selectFrom('identity_links')
      .select(['provider', 'subject'])
      .where('user_id', '=', userId)
      .execute();
  }

  it('registers an unknown PSC professional active, linked, with the RPPS and names asserted', async () => {
    psc.accounts.set('psc-new-1', pscClaims('10101210002', 'Jean', 'Dupont'));
    const client = await pendingBrowser('psc', 'psc-new-1');

    const pending = await client.get('/api/idp/pending');
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({
      provider: 'psc',
      profile: 'professional',
      expiresAt: expect.any(Number),
      asserted: {
        firstName: 'Jean',
        lastName: 'Dupont',
        birthName: null,
        birthDate: null,
        sex: null,
        birthPlaceInsee: null,
        identifier: { type: 'RPPS', value: '10101210002' },
        job: 'Médecin',
        lastNameUsed: null,
      },
    });
    // Nothing else of the claims (organisation, sub) is told.
    expect(pending.body).not.toContain('psc-new-1');
    expect(pending.body).not.toContain('CABINET');

    const res = await client.post(
      '/api/register',
      body('professional', 'dr.new@hygie.test', 'psc'),
    );
    expect(res.statusCode).toBe(201);
    // No manual validation wait: the provider asserted the RPPS.
    expect(res.json()).toEqual({ email: 'dr.new@hygie.test', status: 'active' });
    expect(client.cookies.has('hygie_idp_link')).toBe(false);
    const user = await findUserByEmail(t.ctx.db, 'dr.new@hygie.test');
    if (!user) throw new Error('not created');
    // The body's names and identifier were ignored; its birth fields (not asserted) kept.
    expect(user).toMatchObject({
      profile: 'professional',
      status: 'active',
      first_name: 'Jean',
      last_name: 'Dupont',
      professional_id_type: 'RPPS',
      professional_id: '10101210002',
      job: 'Médecin',
      birth_date: '1990-01-01',
    });
    expect(await linksOf(user.id)).toEqual([{ provider: 'psc', subject: 'psc-new-1' }]);
    const validated = await t.ctx.db
      .selectFrom('audit_events')
      .select(['actor_id', 'details'])
      .where('action', '=', 'account_validated')
      .where('target_id', '=', user.id)
      .execute();
    expect(validated.map((e): unknown[] => [e.actor_id, JSON.parse(e.details ?? '{}')])).toEqual([
      [null, { evidence: 'identity_provider', provider: 'psc' }],
    ]);

    // The e-mail verified, the next PSC sign-in goes straight in.
    const verify = await new TestClient(t.app).post('/api/verification/email/verify', {
      email: 'dr.new@hygie.test',
      code: await lastCode(t, 'dr.new@hygie.test'),
    });
    expect(verify.statusCode).toBe(200);
    psc.nextLogin = { subject: 'psc-new-1', acr: 'eidas1' };
    const next = new TestClient(t.app);
    const again = await roundTrip(next, 'psc');
    expect(again.headers.location).toBe('/');
    expect(next.cookies.has('hygie_session')).toBe(true);
    // Signed in: only the portal's remaining stage (the mobile number) is asked for.
    const me = await next.get('/api/me');
    expect(me.json<{ code: string }>().code).toBe('mobile_phone_not_verified');
    const used = await t.ctx.db
      .selectFrom('audit_events')
      .select('target_id')
      .where('action', '=', 'login_identity_provider')
      .where('target_id', '=', user.id)
      .execute();
    expect(used).toHaveLength(1);
  });

  it('registers an unknown FranceConnect patient with the provider’s traits', async () => {
    fc.accounts.set('fc-new-1', franceConnectClaims());
    const client = await pendingBrowser('franceconnect', 'fc-new-1');
    const pending = await client.get('/api/idp/pending');
    expect(pending.json<{ asserted: unknown }>().asserted).toEqual({
      firstName: 'Jeanne Marie',
      lastName: 'Martin',
      birthName: 'Martin',
      birthDate: '17/05/1980',
      sex: 'female',
      birthPlaceInsee: '75056',
      identifier: null,
      job: null,
      // FranceConnect's preferred_username is the birth name here: no used name.
      lastNameUsed: null,
    });
    const res = await client.post(
      '/api/register',
      body('patient', 'jeanne.new@hygie.test', 'franceconnect'),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ email: 'jeanne.new@hygie.test', status: 'active' });
    const user = await findUserByEmail(t.ctx.db, 'jeanne.new@hygie.test');
    if (!user) throw new Error('not created');
    expect(user).toMatchObject({
      profile: 'patient',
      first_name: 'Jeanne Marie',
      last_name: 'Martin',
      birth_name: 'Martin',
      birth_date: '1980-05-17',
      sex: 'female',
      birth_place_insee: '75056',
    });
    expect(await linksOf(user.id)).toEqual([{ provider: 'franceconnect', subject: 'fc-new-1' }]);
  });

  it('refuses a registration from an identity that is no longer pending: nothing created', async () => {
    psc.accounts.set('psc-late', pscClaims('10101210010'));
    const client = await pendingBrowser('psc', 'psc-late');
    t.clock.advance(16 * 60_000);
    expect((await client.get('/api/idp/pending')).statusCode).toBe(404);
    const res = await client.post(
      '/api/register',
      body('professional', 'dr.late@hygie.test', 'psc'),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('identity_provider_sign_in_invalid');
    expect(await findUserByEmail(t.ctx.db, 'dr.late@hygie.test')).toBeUndefined();

    // No cookie at all, or another provider's or kind: the same.
    const none = await new TestClient(t.app).post(
      '/api/register',
      body('professional', 'dr.none@hygie.test', 'psc'),
    );
    expect(none.json<{ code: string }>().code).toBe('identity_provider_sign_in_invalid');
    psc.accounts.set('psc-kind', pscClaims('10101210028'));
    const other = await pendingBrowser('psc', 'psc-kind');
    const asPatient = await other.post(
      '/api/register',
      body('patient', 'dr.kind@hygie.test', 'psc'),
    );
    expect(asPatient.json<{ code: string }>().code).toBe('identity_provider_sign_in_invalid');
    expect(await findUserByEmail(t.ctx.db, 'dr.kind@hygie.test')).toBeUndefined();
  });

  it('refuses an identity linked meanwhile to another account: nothing created', async () => {
    const otherId = await createUser(t, { email: 'fc.other@hygie.test', password: PASSWORD });
    fc.accounts.set('fc-meanwhile', franceConnectClaims());
    const client = await pendingBrowser('franceconnect', 'fc-meanwhile');
    await t.ctx.db
      .insertInto('identity_links')
      .values({
        provider: 'franceconnect',
        subject: 'fc-meanwhile',
        user_id: otherId,
        created_at: t.clock.now(),
        last_used_at: null,
      })
      .execute();
    expect((await client.get('/api/idp/pending')).statusCode).toBe(404);
    const res = await client.post(
      '/api/register',
      body('patient', 'fc.meanwhile@hygie.test', 'franceconnect'),
    );
    expect(res.json<{ code: string }>().code).toBe('identity_provider_sign_in_invalid');
    expect(await findUserByEmail(t.ctx.db, 'fc.meanwhile@hygie.test')).toBeUndefined();
  });

  it('refuses an RPPS already an account’s on its field, nothing created', async () => {
    const ownerId = await createUser(t, {
      email: 'dr.owner@hygie.test',
      password: PASSWORD,
      profile: 'professional',
      professionalId: { type: 'RPPS', value: '10101210036' },
    });
    psc.accounts.set('psc-taken', pscClaims('10101210036'));
    const client = await pendingBrowser('psc', 'psc-taken');
    const res = await client.post(
      '/api/register',
      body('professional', 'dr.taken@hygie.test', 'psc'),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      data: { fields: [{ path: 'identifier.value', message: 'identifier_taken' }] },
    });
    expect(await findUserByEmail(t.ctx.db, 'dr.taken@hygie.test')).toBeUndefined();
    expect(await linksOf(ownerId)).toEqual([]);
    const links = await t.ctx.db
      .selectFrom('identity_links')
      .select('user_id')
      .where('subject', '=', 'psc-taken')
      .execute();
    expect(links).toEqual([]);
  });
});
