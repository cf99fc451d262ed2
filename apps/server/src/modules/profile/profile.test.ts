import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { saveSetting } from '../settings/service.js';
import { findUserByEmail } from '../users/service.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';

describe.each(DIALECTS)('my profile, devices and dashboard on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function signedIn(email: string, phone: string, options: { trustDevice?: boolean } = {}) {
    await createUser(t, { email, password: 'Profile-Passw0rd-1', phone });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, 'Profile-Passw0rd-1', options)).statusCode).toBe(200);
    return client;
  }

  it('shows every person field and edits them, refusing bad values field by field', async () => {
    const client = await signedIn('profile@hygie.test', '+33655000001');
    const profile = await client.get('/api/profile');
    expect(profile.json()).toMatchObject({
      email: 'profile@hygie.test',
      firstName: 'Jeanne',
      lastName: 'Martin',
      birthDate: '17/05/1980',
      birthPlaceInsee: '75056',
      sex: 'female',
      profile: 'patient',
    });
    const bad = await client.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: { firstName: '', birthPlaceInsee: '96001', ins: '295109912611199' },
    });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json<{ data: { fields: { path: string; message: string }[] } }>().data
      .fields;
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'firstName', message: 'field_required' }),
        expect.objectContaining({ path: 'birthPlaceInsee', message: 'insee_invalid' }),
        expect.objectContaining({ path: 'ins', message: 'ins_invalid' }),
      ]),
    );
    expect((await client.get('/api/profile')).json()).toMatchObject({ firstName: 'Jeanne' });
    const ok = await client.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: {
        firstName: 'Jeanne-Marie',
        birthDate: '00/05/1980',
        ins: '295109912611193',
        language: 'ar',
        roles: ['admin'],
      },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      firstName: 'Jeanne-Marie',
      birthDate: '00/05/1980',
      ins: '295109912611193',
      language: 'ar',
    });
    const row = await t.ctx.db
      .selectFrom('users')
      .select(['roles', 'search_name'])
      .where('email', '=', 'profile@hygie.test')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ roles: '[]', search_name: 'martin jeanne-marie' });
  });

  it('stores an INS with its OID, read from the number, and removes both together', async () => {
    const client = await signedIn('ins-oid@hygie.test', '+33655000009');
    // Through the repository: the stored row holds sealed values.
    const insOf = async () => {
      const user = await findUserByEmail(t.ctx.db, 'ins-oid@hygie.test');
      return { ins: user?.ins, ins_oid: user?.ins_oid };
    };
    const edit = (ins: string | null) =>
      client.request({ method: 'PATCH', url: '/api/profile', payload: { ins } });
    expect((await edit('1 85 05 78 006 084 91')).statusCode).toBe(200);
    expect(await insOf()).toEqual({ ins: '185057800608491', ins_oid: '1.2.250.1.213.1.4.8' });
    expect((await client.get('/api/profile')).json()).toMatchObject({
      insOid: '1.2.250.1.213.1.4.8',
    });
    // A number awaiting a NIR (first digit 7 or 8) is an INS-NIA.
    expect((await edit('785039912345663')).statusCode).toBe(200);
    expect(await insOf()).toEqual({ ins: '785039912345663', ins_oid: '1.2.250.1.213.1.4.9' });
    expect((await edit(null)).statusCode).toBe(200);
    expect(await insOf()).toEqual({ ins: null, ins_oid: null });
  });

  it('changes the e-mail only once the code sent to the new address is entered, and warns the old one', async () => {
    const client = await signedIn('old-mail@hygie.test', '+33655000002');
    const wrong = await client.post('/api/profile/email', {
      email: 'new-mail@hygie.test',
      currentPassword: 'Wrong-Passw0rd-1',
    });
    expect(wrong.json()).toMatchObject({
      code: 'wrong_current_password',
      message: 'Modifications non enregistrées, veuillez vérifier votre mot de passe.',
    });
    const taken = await client.post('/api/profile/email', {
      email: 'profile@hygie.test',
      currentPassword: 'Profile-Passw0rd-1',
    });
    expect(taken.json()).toMatchObject({ code: 'email_already_used' });
    const sent = await client.post('/api/profile/email', {
      email: 'New-Mail@hygie.test',
      currentPassword: 'Profile-Passw0rd-1',
    });
    expect(sent.json()).toMatchObject({ retryAfterSeconds: 60 });
    expect((await client.get('/api/profile')).json()).toMatchObject({
      email: 'old-mail@hygie.test',
      pendingEmail: 'new-mail@hygie.test',
    });
    const done = await client.post('/api/profile/email/verify', {
      code: await lastCode(t, 'new-mail@hygie.test'),
    });
    expect(done.json()).toMatchObject({
      email: 'new-mail@hygie.test',
      emailVerified: true,
      pendingEmail: null,
    });
    expect((await messagesTo(t, 'old-mail@hygie.test'))[0]).toMatchObject({
      template: 'email_changed',
      params: { newEmail: 'new-mail@hygie.test' },
    });
  });

  it("refuses an INS that is already someone's, on the INS field", async () => {
    const owner = await signedIn('ins-owner@hygie.test', '+33655000010');
    const ins = '180057512345627';
    await owner.request({ method: 'PATCH', url: '/api/profile', payload: { ins } });
    const client = await signedIn('ins-other@hygie.test', '+33655000011');
    const res = await client.request({ method: 'PATCH', url: '/api/profile', payload: { ins } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      data: { fields: [{ path: 'ins', message: 'identifier_taken' }] },
    });
  });

  it('refuses a new e-mail taken by someone else between the request and the code', async () => {
    const first = await signedIn('race-a@hygie.test', '+33655000012');
    const second = await signedIn('race-b@hygie.test', '+33655000013');
    for (const client of [first, second]) {
      await client.post('/api/profile/email', {
        email: 'race-target@hygie.test',
        currentPassword: 'Profile-Passw0rd-1',
      });
    }
    const codes = (await messagesTo(t, 'race-target@hygie.test')).map((m) => m.params.code);
    // Newest first: the second client's code, then the first's.
    const won = await first.post('/api/profile/email/verify', { code: codes[1] });
    expect(won.json()).toMatchObject({ email: 'race-target@hygie.test' });
    const lost = await second.post('/api/profile/email/verify', { code: codes[0] });
    expect(lost.json()).toMatchObject({ code: 'email_already_used' });
  });

  it('changes the phone only once the SMS code to the new number is entered', async () => {
    const client = await signedIn('phone-change@hygie.test', '+33655000003');
    await client.post('/api/profile/phone', {
      phone: '06 55 00 00 99',
      currentPassword: 'Profile-Passw0rd-1',
    });
    expect((await client.get('/api/profile')).json()).toMatchObject({
      phone: '+33655000003',
      pendingPhone: '+33655000099',
    });
    const code = await lastCode(t, '+33655000099');
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await client.post('/api/profile/phone/verify', { code: wrong })).json()).toMatchObject({
      code: 'wrong_code',
    });
    const done = await client.post('/api/profile/phone/verify', { code });
    expect(done.json()).toMatchObject({
      phone: '+33655000099',
      phoneVerified: true,
      pendingPhone: null,
    });
  });

  it('keeps the pending number when another is asked for within the cooldown, and says how long to wait', async () => {
    const client = await signedIn('phone-twice@hygie.test', '+33655000004');
    const first = await client.post('/api/profile/phone', {
      phone: '06 55 00 00 41',
      currentPassword: 'Profile-Passw0rd-1',
    });
    expect(first.statusCode).toBe(200);
    t.clock.advance(20_000);
    const second = await client.post('/api/profile/phone', {
      phone: '06 55 00 00 42',
      currentPassword: 'Profile-Passw0rd-1',
    });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({
      code: 'wait_before_retry',
      data: { retryAfterSeconds: 40 },
    });
    expect(second.headers['retry-after']).toBe('40');
    // Nothing changed silently: the first number is still the pending one, the second got nothing.
    expect((await client.get('/api/profile')).json()).toMatchObject({
      phone: '+33655000004',
      pendingPhone: '+33655000041',
    });
    expect(await messagesTo(t, '+33655000042')).toEqual([]);
    t.clock.advance(40_000);
    const later = await client.post('/api/profile/phone', {
      phone: '06 55 00 00 42',
      currentPassword: 'Profile-Passw0rd-1',
    });
    expect(later.statusCode).toBe(200);
    expect((await client.get('/api/profile')).json()).toMatchObject({
      pendingPhone: '+33655000042',
    });
    const done = await client.post('/api/profile/phone/verify', {
      code: await lastCode(t, '+33655000042'),
    });
    expect(done.json()).toMatchObject({ phone: '+33655000042', pendingPhone: null });
  });

  it('changes the password with the current one, ending other sessions and trusted devices', async () => {
    const client = await signedIn('pw-change@hygie.test', '+33655000004', { trustDevice: true });
    const other = new TestClient(t.app);
    await signIn(t, other, 'pw-change@hygie.test', 'Profile-Passw0rd-1');
    const wrong = await client.post('/api/profile/password', {
      currentPassword: 'Nope-Passw0rd-1',
      password: 'Brisk-Lantern-58',
      passwordConfirmation: 'Brisk-Lantern-58',
    });
    expect(wrong.json()).toMatchObject({ code: 'wrong_current_password' });
    const same = await client.post('/api/profile/password', {
      currentPassword: 'Profile-Passw0rd-1',
      password: 'Profile-Passw0rd-1',
      passwordConfirmation: 'Profile-Passw0rd-1',
    });
    expect(same.json()).toMatchObject({ code: 'password_must_differ' });
    const ok = await client.post('/api/profile/password', {
      currentPassword: 'Profile-Passw0rd-1',
      password: 'Brisk-Lantern-58',
      passwordConfirmation: 'Brisk-Lantern-58',
    });
    expect(ok.json()).toEqual({ ok: true });
    expect((await client.get('/api/me')).statusCode).toBe(200);
    expect((await other.get('/api/me')).statusCode).toBe(401);
    expect((await client.get('/api/devices')).json()).toEqual([]);
    expect((await messagesTo(t, 'pw-change@hygie.test'))[0]).toMatchObject({
      template: 'password_changed',
    });
  });

  it('lists my trusted devices with the current one marked, and deletes only my own (IDOR)', async () => {
    const mine = await signedIn('devices@hygie.test', '+33655000005', { trustDevice: true });
    const theirs = await signedIn('devices-other@hygie.test', '+33655000006', {
      trustDevice: true,
    });
    const list = (await mine.get('/api/devices')).json<
      {
        id: string;
        current: boolean;
        label: string;
        userAgent: string | null;
      }[]
    >();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ current: true });
    const theirList = (await theirs.get('/api/devices')).json<{ id: string }[]>();
    const theirId = theirList[0]?.id ?? '';
    const attempt = await mine.request({ method: 'DELETE', url: `/api/devices/${theirId}` });
    expect(attempt.statusCode).toBe(404);
    expect((await theirs.get('/api/devices')).json()).toHaveLength(1);
    const own = await mine.request({ method: 'DELETE', url: `/api/devices/${list[0]?.id ?? ''}` });
    expect(own.json()).toEqual({ ok: true });
    expect((await mine.get('/api/devices')).json()).toEqual([]);
    // forgotten device: the next sign-in asks for the second factor again
    expect((await mine.login('devices@hygie.test', 'Profile-Passw0rd-1')).json()).toMatchObject({
      code: 'two_factor_authentication_required',
    });
  });

  it('answers the dashboard and the public support contact', async () => {
    const client = await signedIn('dash@hygie.test', '+33655000007');
    expect((await client.get('/api/dashboard')).json()).toEqual({
      attention: [],
      trustedDevices: 0,
      passwordExpiresAt: null,
    });
    // New terms published during the session: the dashboard says they come at the next sign-in.
    await saveSetting(t.ctx.db, 'CGU_VERSION', '2026-09', null, t.clock.now());
    try {
      expect((await client.get('/api/dashboard')).json()).toMatchObject({
        attention: [{ kind: 'terms_to_accept' }],
      });
    } finally {
      await saveSetting(t.ctx.db, 'CGU_VERSION', '2026-01', null, t.clock.now());
    }
    const support = await new TestClient(t.app).get('/api/support');
    expect(support.json()).toMatchObject({ mail: 'support@hygie.local', usefulLinks: [] });
  });
});
