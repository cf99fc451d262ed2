import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../test/helpers.js';

// Attacker suite (security issue, point 4): an intruder who held the account for a while left
// footholds: a session, a trusted browser, a native key, a platform's tokens, a code or a link in
// flight. The owner's recovery (password reset, account lock) must leave none of them.
const OWNER = {
  email: 'owner@example.fr',
  password: 'Kerguelen-Orque-1987',
  phone: '+33612121212',
};
const NEW_PASSWORD = 'Vélo-rouge-sur-la-Loire-7';

describe.each(DIALECTS)('recovery on %s', (dialect) => {
  let t: TestApp;
  let userId: string;
  let intruder: TestClient;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    userId = await createUser(t, OWNER);
    intruder = new TestClient(t.app);
    await signIn(t, intruder, OWNER.email, OWNER.password, { trustDevice: true });
    const now = t.clock.now();
    await t.ctx.db
      .insertInto('credentials')
      .values({
        id: 'key-1',
        user_id: userId,
        kind: 'native',
        credential_id: 'intruder-key',
        public_key: 'pk',
        counter: 0,
        transports: null,
        device_name: 'Intruder phone',
        user_verifying: 1,
        created_at: now,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    await t.ctx.db
      .insertInto('oidc_store')
      .values({
        id: 'refresh-1',
        model: 'RefreshToken',
        payload: '{}',
        grant_id: 'grant-1',
        user_code: null,
        uid: null,
        expires_at: now + 86_400_000,
        consumed_at: null,
        account_id: userId,
      })
      .execute();
  });
  afterEach(() => t.close());

  /** What the account still grants ("lock my account" links grant nothing and are kept). */
  async function footholds() {
    const db = t.ctx.db;
    const count = async (q: Promise<{ n: number | string | bigint } | undefined>) =>
      Number((await q)?.n ?? 0);
    return {
      sessions: await count(
        db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirst(),
      ),
      devices: await count(
        db
          .selectFrom('trusted_devices')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirst(),
      ),
      nativeKeys: await count(
        db
          .selectFrom('credentials')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .executeTakeFirst(),
      ),
      platformTokens: await count(
        db
          .selectFrom('oidc_store')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('account_id', '=', userId)
          .executeTakeFirst(),
      ),
      liveCodes: await count(
        db
          .selectFrom('one_time_codes')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .where('consumed_at', 'is', null)
          .where('superseded_at', 'is', null)
          .executeTakeFirst(),
      ),
      liveLinks: await count(
        db
          .selectFrom('link_tokens')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .where('purpose', '!=', 'lock_account')
          .where('consumed_at', 'is', null)
          .executeTakeFirst(),
      ),
    };
  }

  const NONE = {
    sessions: 0,
    devices: 0,
    nativeKeys: 0,
    platformTokens: 0,
    liveCodes: 0,
    liveLinks: 0,
  };

  it('a password reset leaves the intruder nothing', async () => {
    const owner = new TestClient(t.app);
    expect(
      (await owner.post('/api/password/forgot', { username: OWNER.email, channel: 'email' }))
        .statusCode,
    ).toBe(200);
    const code = (await messagesTo(t, OWNER.email)).find(
      (m) => m.template === 'password_reset_code',
    )?.params.code;
    expect(code).toMatch(/^\d{6}$/);
    // The intruder asks for a code by SMS meanwhile: it must die with the reset too.
    t.clock.advance(61_000);
    await intruder.post('/api/password/forgot', { username: OWNER.email, channel: 'sms' });
    const verified = await owner.post('/api/password/forgot/verify', {
      username: OWNER.email,
      channel: 'email',
      code,
    });
    const { resetToken } = verified.json<{ resetToken: string }>();
    const reset = await owner.post('/api/password/reset', {
      resetToken,
      password: NEW_PASSWORD,
      passwordConfirmation: NEW_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    expect(await footholds()).toEqual(NONE);
    expect((await intruder.get('/api/me')).statusCode).toBe(401);
    // Whoever reset the password, the owner's earlier "not you? lock my account" link still works.
    const lockUrl = (await messagesTo(t, OWNER.email)).findLast(
      (m) => m.template === 'sign_in_notice',
    )?.params.lockUrl;
    const locked = await new TestClient(t.app).post('/api/lock-account', {
      email: OWNER.email,
      code: new URL(lockUrl ?? '').searchParams.get('code'),
    });
    expect(locked.statusCode).toBe(200);
  });

  it('locking the account from the "not you?" link leaves the intruder nothing', async () => {
    const lockUrl = (await messagesTo(t, OWNER.email)).find((m) => m.params.lockUrl)?.params
      .lockUrl;
    expect(lockUrl).toBeTruthy();
    const code = new URL(lockUrl ?? '').searchParams.get('code');
    const res = await new TestClient(t.app).post('/api/lock-account', { email: OWNER.email, code });
    expect(res.statusCode).toBe(200);
    expect(await footholds()).toEqual(NONE);
    expect((await intruder.get('/api/me')).statusCode).toBe(401);
  });

  it('a password change keeps this session but ends the others and any reset in flight', async () => {
    await intruder.post('/api/password/forgot', { username: OWNER.email, channel: 'email' });
    const owner = new TestClient(t.app);
    await signIn(t, owner, OWNER.email, OWNER.password);
    const res = await owner.post('/api/profile/password', {
      currentPassword: OWNER.password,
      password: NEW_PASSWORD,
      passwordConfirmation: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    const left = await footholds();
    expect(left).toMatchObject({ sessions: 1, devices: 0 });
    const resetCodes = await t.ctx.db
      .selectFrom('one_time_codes')
      .select('id')
      .where('user_id', '=', userId)
      .where('purpose', 'in', ['reset_email', 'reset_sms'])
      .where('consumed_at', 'is', null)
      .where('superseded_at', 'is', null)
      .execute();
    expect(resetCodes).toEqual([]);
    expect((await intruder.get('/api/me')).statusCode).toBe(401);
    expect((await owner.get('/api/me')).statusCode).toBe(200);
  });

  it('the password-change notice names the keys that still sign in and links to My devices', async () => {
    const owner = new TestClient(t.app);
    await signIn(t, owner, OWNER.email, OWNER.password);
    await owner.post('/api/profile/password', {
      currentPassword: OWNER.password,
      password: NEW_PASSWORD,
      passwordConfirmation: NEW_PASSWORD,
    });
    const [notice] = (await messagesTo(t, OWNER.email)).filter(
      (m) => m.template === 'password_changed',
    );
    // The intruder's key survives a change (not a reset): the owner is told, with where to end it.
    expect(notice?.params).toMatchObject({
      keys: 'Intruder phone',
      devicesUrl: expect.stringMatching(/\/devices$/),
    });
  });
});
