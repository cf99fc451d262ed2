import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  DIALECTS,
  lastCode,
  messagesTo,
  signIn,
  TestClient,
  ADMIN,
} from '../../test/helpers.js';
import { findUserByEmail } from '../users/service.js';

/** The terms in force as the form shows them (GET /api/cgu), read once the app is up. */
const TERMS = { cguVersion: '', cguHash: '' };

const patient = (email: string) => ({
  type: 'patient',
  email,
  password: 'Sunny-Garden-42',
  passwordConfirmation: 'Sunny-Garden-42',
  acceptCgu: true,
  ...TERMS,
  firstName: 'Léa',
  lastName: 'Bernard',
  birthDate: '17/05/1980',
  birthPlaceInsee: '75056',
  sex: 'female',
  phone: '06 12 34 56 78',
});

const professional = (email: string) => ({
  ...patient(email),
  type: 'professional',
  identifier: { type: 'RPPS', value: '10101215225' },
  job: 'Infirmière',
});

describe.each(DIALECTS)('registration on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const terms = (await new TestClient(t.app).get('/api/cgu')).json<{
      version: string;
      hash: string;
    }>();
    Object.assign(TERMS, { cguVersion: terms.version, cguHash: terms.hash });
  });
  afterAll(() => t.close());

  it('creates an active patient, records the terms and sends an e-mail code in the request language', async () => {
    const res = await new TestClient(t.app).post(
      '/api/register?l=ar',
      patient('Lea.Bernard@Hygie.test'),
      { 'x-branding': 'telecare' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ email: 'lea.bernard@hygie.test', status: 'active' });
    // Through the repository: the stored row holds sealed values.
    const user = await findUserByEmail(t.ctx.db, 'lea.bernard@hygie.test');
    if (!user) throw new Error('the patient was not created');
    expect(user).toMatchObject({
      profile: 'patient',
      phone: '+33612345678',
      phone_verified_at: null,
      email_verified_at: null,
      birth_date: '1980-05-17',
      cgu_version: '2026-01',
      language: 'ar',
    });
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    const [mail] = await messagesTo(t, 'lea.bernard@hygie.test');
    expect(mail).toMatchObject({
      template: 'verification_code',
      language: 'ar',
      brand: 'telecare',
    });
    expect(mail?.params.link).toContain(
      '/security/verify-email?email=lea.bernard%40hygie.test&code=',
    );
    const consents = await t.ctx.db
      .selectFrom('consents')
      .select('version')
      .where('user_id', '=', user.id)
      .execute();
    expect(consents).toEqual([{ version: '2026-01' }]);
  });

  it('refuses an e-mail already used, whatever its case', async () => {
    await new TestClient(t.app).post('/api/register', patient('twice@hygie.test'));
    const res = await new TestClient(t.app).post('/api/register', patient('TWICE@hygie.test'));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'email_already_used' });
  });

  it.each([
    [{ passwordConfirmation: 'Other-Garden-42' }, 'passwordConfirmation', 'passwords_must_match'],
    [{ acceptCgu: false }, 'acceptCgu', 'cgu_must_be_accepted'],
    [{ email: 'not-an-email' }, 'email', 'email_invalid'],
    [{ phone: '01 40 00 00 00' }, 'phone', 'phone_invalid'],
    [{ birthDate: '31/02/1980' }, 'birthDate', 'birth_date_invalid'],
    [{ birthPlaceInsee: '96001' }, 'birthPlaceInsee', 'insee_invalid'],
    [{ password: 'short', passwordConfirmation: 'short' }, 'password', 'password_rule'],
    [
      { password: 'Password1', passwordConfirmation: 'Password1' },
      'password',
      'password_too_common',
    ],
    [{ socialSecurityNumber: '295109912611199' }, 'socialSecurityNumber', 'ins_invalid'],
    [{ firstName: '' }, 'firstName', 'field_required'],
  ])('refuses %j with the field and its message', async (change, path, message) => {
    const res = await new TestClient(t.app).post('/api/register', {
      ...patient(`bad-${path}@hygie.test`),
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ data: { fields: unknown[] } }>().data.fields).toContainEqual(
      expect.objectContaining({ path, message }),
    );
    const none = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', `bad-${path}@hygie.test`)
      .execute();
    expect(none).toHaveLength(0);
  });

  it('refuses a password containing the e-mail or the name', async () => {
    const res = await new TestClient(t.app).post('/api/register', {
      ...patient('bernard@hygie.test'),
      password: 'Bernard-2024x',
      passwordConfirmation: 'Bernard-2024x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      data: { fields: [{ path: 'password', message: 'password_personal_info' }] },
    });
  });

  it('never assigns roles or status from the body', async () => {
    const res = await new TestClient(t.app).post('/api/register', {
      ...patient('mass@hygie.test'),
      roles: ['admin'],
      status: 'active',
      type: 'patient',
    });
    expect(res.statusCode).toBe(201);
    const user = await t.ctx.db
      .selectFrom('users')
      .select('roles')
      .where('email', '=', 'mass@hygie.test')
      .executeTakeFirstOrThrow();
    expect(user.roles).toBe('[]');
  });

  it('starts a professional pending validation; an admin validates, and the user is told', async () => {
    const res = await new TestClient(t.app).post('/api/register', professional('pro@hygie.test'));
    expect(res.json()).toEqual({ email: 'pro@hygie.test', status: 'pending_validation' });
    const refused = await new TestClient(t.app).login('pro@hygie.test', 'Sunny-Garden-42');
    expect(refused.json()).toMatchObject({ code: 'account_pending_validation' });
    const user = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'pro@hygie.test')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      professional_id_type: 'RPPS',
      professional_id: '10101215225',
      job: 'Infirmière',
    });

    // a non-admin cannot validate
    const patientClient = new TestClient(t.app);
    await new TestClient(t.app).post('/api/register', patient('plain@hygie.test'));
    await t.ctx.db
      .updateTable('users')
      .set({ email_verified_at: t.clock.now(), phone_verified_at: t.clock.now() })
      .where('email', '=', 'plain@hygie.test')
      .execute();
    expect((await signIn(t, patientClient, 'plain@hygie.test', 'Sunny-Garden-42')).statusCode).toBe(
      200,
    );
    const forbidden = await patientClient.post(`/api/admin/users/${user.id}/validate`);
    expect(forbidden.statusCode).toBe(403);
    expect(
      (await new TestClient(t.app).post(`/api/admin/users/${user.id}/validate`)).statusCode,
    ).toBe(401);

    const admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/users/${user.id}/validate`)).statusCode).toBe(200);
    expect((await messagesTo(t, 'pro@hygie.test'))[0]).toMatchObject({
      template: 'account_validated',
    });
    const ok = await new TestClient(t.app).login('pro@hygie.test', 'Sunny-Garden-42');
    expect(ok.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    expect((await admin.post(`/api/admin/users/${user.id}/validate`)).statusCode).toBe(404);
  });

  it('rejecting a professional tells them and leaves no account to unlock', async () => {
    await new TestClient(t.app).post('/api/register', {
      ...professional('rejected@hygie.test'),
      identifier: { type: 'RPPS', value: '10002909371' },
    });
    const user = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'rejected@hygie.test')
      .executeTakeFirstOrThrow();
    const admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
    expect((await admin.post(`/api/admin/users/${user.id}/reject`)).json()).toEqual({ ok: true });
    expect((await messagesTo(t, 'rejected@hygie.test'))[0]).toMatchObject({
      template: 'account_rejected',
    });
    expect(
      await t.ctx.db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await admin.post(`/api/admin/users/${user.id}/unlock`)).statusCode).toBe(404);
    expect(
      (await new TestClient(t.app).login('rejected@hygie.test', 'Sunny-Garden-42')).json(),
    ).toMatchObject({ code: 'bad_credentials' });
    // Erased by the one rule (as a deletion): the trail stays, without the person's addresses.
    const events = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', user.id)
      .execute();
    expect(events.find((e) => e.action === 'account_rejected')).toMatchObject({
      ip: expect.any(String),
    });
    const theirs = events.filter((e) => e.action === 'registered');
    expect(theirs).toHaveLength(1);
    expect(theirs.every((e) => e.ip === null && e.user_agent === null)).toBe(true);
  });

  it('refuses a professional identifier that fails its check', async () => {
    const res = await new TestClient(t.app).post('/api/register', {
      ...professional('badrpps@hygie.test'),
      identifier: { type: 'RPPS', value: '10002727378' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      data: { fields: [{ path: 'identifier.value', message: 'identifier_invalid' }] },
    });
  });

  it('verifies the e-mail anonymously from the link, with every code error', async () => {
    await new TestClient(t.app).post('/api/register', patient('verify@hygie.test'));
    const client = new TestClient(t.app);
    const code = await lastCode(t, 'verify@hygie.test');
    const wrong = code === '000000' ? '111111' : '000000';
    const res1 = await client.post('/api/verification/email/verify', {
      email: 'verify@hygie.test',
      code: wrong,
    });
    // Anonymous: every refusal is the one an unknown address gets (attacks/enumeration.test.ts).
    expect(res1.json()).toMatchObject({ code: 'code_invalid' });
    // The account's own cooldown does not show through; the address typed has its own.
    const again = await client.post('/api/verification/email/send', {
      email: 'verify@hygie.test',
    });
    expect(again.statusCode).toBe(200);
    const tooSoon = await client.post('/api/verification/email/send', {
      email: 'verify@hygie.test',
    });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toMatchObject({
      code: 'wait_before_retry',
      data: { retryAfterSeconds: expect.any(Number) },
    });
    expect(
      (
        await client.post('/api/verification/email/verify', {
          email: 'verify@hygie.test',
          code: '12',
        })
      ).statusCode,
    ).toBe(400);
    const ok = await client.post('/api/verification/email/verify', {
      email: 'verify@hygie.test',
      code,
    });
    expect(ok.json()).toEqual({ ok: true });
    const user = await t.ctx.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('email', '=', 'verify@hygie.test')
      .executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull();
    // unknown addresses get the same answer as known ones when asking for a code
    t.clock.advance(61_000);
    const unknown = await client.post('/api/verification/email/send', {
      email: 'nobody@hygie.test',
    });
    expect(unknown.statusCode).toBe(200);
    expect(
      (
        await client.post('/api/verification/email/verify', { email: 'nobody@hygie.test', code })
      ).json(),
    ).toMatchObject({ code: 'code_invalid' });
  });

  it('rate-limits sign-ups per address', async () => {
    const other = await createTestApp(dialect);
    try {
      let last = 0;
      for (let i = 0; i < 21; i++) {
        last = (
          await new TestClient(other.app).post('/api/register', patient(`many-${i}@hygie.test`))
        ).statusCode;
      }
      expect(last).toBe(429);
    } finally {
      await other.close();
    }
  }, 60_000);
});
