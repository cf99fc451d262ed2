import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';

// The authenticator app (issue #20, item 1): enrolment behind the step-up, a sealed secret shown
// once, confirmation by a first code, then a second factor listed first, accepted for the current
// step ±1 and each code once — even when 20 submissions of one code arrive together.

describe.each(DIALECTS)('the authenticator app on %s', (dialect) => {
  let t: TestApp;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function person() {
    seq += 1;
    const email = `totp-${seq}@hygie.test`;
    const password = `Totp-Passw0rd-${seq}`;
    const id = await createUser(t, { email, password, phone: `+336572000${10 + seq}` });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, password)).statusCode).toBe(200);
    return { id, email, password, client };
  }

  function appOf(otpauthUri: string): TOTP {
    const parsed = URI.parse(otpauthUri);
    if (!('period' in parsed)) throw new Error('not a TOTP URI');
    return parsed;
  }

  const codeAt = (app: TOTP, ms: number) => app.generate({ timestamp: ms });

  /** A person with a confirmed app; the app to compute codes with. */
  async function enrolled() {
    const me = await person();
    const res = await me.client.post('/api/me/totp', { currentPassword: me.password });
    expect(res.statusCode).toBe(200);
    const app = appOf(res.json<{ otpauthUri: string }>().otpauthUri);
    // The confirmation's step is used: the next sign-in needs a later step's code.
    const confirmed = await me.client.post('/api/me/totp/confirm', {
      code: codeAt(app, t.clock.now()),
    });
    expect(confirmed.statusCode).toBe(200);
    return { ...me, app };
  }

  /** A fresh client at the second-factor stage of `me`. */
  async function halfSignedIn(me: { email: string; password: string }) {
    const client = new TestClient(t.app);
    const res = await client.login(me.email, me.password);
    expect(res.statusCode).toBe(401);
    return { client, data: res.json<{ code: string; data: { two_factor_providers: string[] } }>() };
  }

  it('enrols: an RFC 6238 URI once (brand as issuer, e-mail as label), the secret sealed, confirmed by a first code', async () => {
    const me = await person();
    const res = await me.client.post('/api/me/totp', { currentPassword: me.password });
    expect(res.statusCode).toBe(200);
    const { otpauthUri } = res.json<{ otpauthUri: string }>();
    const url = new URL(otpauthUri);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Hygie:${me.email}`);
    expect(url.searchParams.get('issuer')).toBe('Hygie');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    const secret = url.searchParams.get('secret') ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes, base32

    const row = await t.ctx.db
      .selectFrom('users')
      .select(['totp_secret', 'totp_enabled_at'])
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(secret);
    expect(row.totp_enabled_at).toBeNull();
    expect((await me.client.get('/api/me/totp')).json()).toEqual({
      enabled: false,
      enabledAt: null,
    });

    // Not yet a factor: the sign-in's second factor does not offer it.
    expect((await halfSignedIn(me)).data.data.two_factor_providers).toEqual(['email', 'sms']);

    const app = appOf(otpauthUri);
    const wrong = await me.client.post('/api/me/totp/confirm', {
      code: codeAt(app, t.clock.now() - 10 * 60_000),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'wrong_code', data: { remainingAttempts: 4 } });
    expect(wrong.json<{ message: string }>().message).not.toBe('');

    const ok = await me.client.post('/api/me/totp/confirm', { code: codeAt(app, t.clock.now()) });
    expect(ok.statusCode).toBe(200);
    // The first app brings the first recovery codes (modules/recovery-codes).
    expect(ok.json()).toMatchObject({ enabled: true, enabledAt: t.clock.now() });
    expect(ok.json<{ recoveryCodes: string[] }>().recoveryCodes).toHaveLength(10);
    expect((await messagesTo(t, me.email))[0]?.template).toBe('totp_enabled');
    const actions = await t.ctx.db
      .selectFrom('audit_events')
      .select('action')
      .where('target_id', '=', me.id)
      .where('action', 'like', 'totp_%')
      .execute();
    expect(actions.map((a) => a.action).sort()).toEqual(['totp_enabled', 'totp_enrolment_started']);

    // Enabled: another enrolment is refused until this one is removed; the secret is never shown again.
    const again = await me.client.post('/api/me/totp', { currentPassword: me.password });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'totp_already_enabled' });
    expect(JSON.stringify((await me.client.get('/api/me/totp')).json())).not.toContain(secret);
  });

  it('asks for the step-up: a wrong password or no recent proof changes nothing', async () => {
    const me = await person();
    const wrong = await me.client.post('/api/me/totp', { currentPassword: 'Not-the-passw0rd' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'wrong_current_password' });
    t.clock.advance(6 * 60_000);
    const stale = await me.client.post('/api/me/totp', {});
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'reauthentication_required' });
    const row = await t.ctx.db
      .selectFrom('users')
      .select('totp_secret')
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).toBeNull();
    const remove = await me.client.request({ method: 'DELETE', url: '/api/me/totp', payload: {} });
    expect(remove.statusCode).toBe(403);
  });

  it('signs in with it: listed first, a code of the step before accepted, recorded as totp, each code once', async () => {
    const me = await enrolled();
    t.clock.advance(13 * 60_000);
    const first = await halfSignedIn(me);
    expect(first.data.code).toBe('two_factor_authentication_required');
    expect(first.data.data.two_factor_providers).toEqual(['totp', 'email', 'sms', 'recovery_code']);
    expect((await first.client.get('/api/mfa')).json()).toMatchObject({
      two_factor_providers: ['totp', 'email', 'sms', 'recovery_code'],
    });
    // The phone's clock 30 s behind: the previous step's code passes.
    const code = codeAt(me.app, t.clock.now() - 30_000);
    const res = await first.client.post('/api/mfa/verify', { provider: 'totp', code });
    expect(res.statusCode).toBe(200);
    const session = await t.ctx.db
      .selectFrom('sessions')
      .select(['amr', 'mfa_verified_at'])
      .where('user_id', '=', me.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    // Recorded as the app's (the level is substantial); the ID token says `otp` (RFC 8176).
    expect(session.amr?.split(' ')).toEqual(['pwd', 'totp']);
    expect(session.mfa_verified_at).toBe(t.clock.now());

    // The same code again (another browser, still within its window): refused.
    const replay = await halfSignedIn(me);
    const again = await replay.client.post('/api/mfa/verify', { provider: 'totp', code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'code_already_used' });
    // An older step than the last accepted one too, even inside the drift window.
    const older = await replay.client.post('/api/mfa/verify', {
      provider: 'totp',
      code: codeAt(me.app, t.clock.now() - 60_000),
    });
    expect(older.statusCode).toBe(400);
    // Two steps away: outside the drift window.
    const far = await replay.client.post('/api/mfa/verify', {
      provider: 'totp',
      code: codeAt(me.app, t.clock.now() + 60_000),
    });
    expect(far.json()).toMatchObject({ code: 'wrong_code' });
    // The next step's code passes.
    const next = await replay.client.post('/api/mfa/verify', {
      provider: 'totp',
      code: codeAt(me.app, t.clock.now() + 30_000),
    });
    expect(next.statusCode).toBe(200);
    const failures = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('target_id', '=', me.id)
      .where('action', '=', 'second_factor_failed')
      .execute();
    expect(failures.map((f) => f.details).join(' ')).toContain('code_already_used');
  });

  it('accepts one code once among 20 parallel submissions', async () => {
    const me = await enrolled();
    t.clock.advance(13 * 60_000);
    const clients: TestClient[] = [];
    for (let i = 0; i < 20; i++) clients.push((await halfSignedIn(me)).client);
    const code = codeAt(me.app, t.clock.now());
    const answers = await Promise.all(
      clients.map((c) => c.post('/api/mfa/verify', { provider: 'totp', code })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 400)).toHaveLength(19);
    for (const a of answers.filter((r) => r.statusCode === 400)) {
      expect(a.json()).toMatchObject({ code: 'code_already_used' });
    }
  });

  it('slows wrong codes down: 429 after 5, then a right code once the wait is over', async () => {
    const me = await enrolled();
    t.clock.advance(13 * 60_000);
    const { client } = await halfSignedIn(me);
    const wrong = codeAt(me.app, t.clock.now() - 30 * 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await client.post('/api/mfa/verify', { provider: 'totp', code: wrong })).statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    const blocked = await client.post('/api/mfa/verify', {
      provider: 'totp',
      code: codeAt(me.app, t.clock.now()),
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    t.clock.advance(61_000);
    const ok = await client.post('/api/mfa/verify', {
      provider: 'totp',
      code: codeAt(me.app, t.clock.now()),
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a TOTP code from an account without a confirmed app, and sending one', async () => {
    const me = await person();
    t.clock.advance(13 * 60_000);
    const { client } = await halfSignedIn(me);
    const res = await client.post('/api/mfa/verify', { provider: 'totp', code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'code_invalid' });
    const send = await client.post('/api/mfa/send', { provider: 'totp' });
    expect(send.statusCode).toBe(400);
  });

  it('removes it behind the step-up: the owner told, codes no longer accepted, not offered', async () => {
    const me = await enrolled();
    const res = await me.client.request({
      method: 'DELETE',
      url: '/api/me/totp',
      payload: { currentPassword: me.password },
    });
    expect(res.statusCode).toBe(200);
    expect((await messagesTo(t, me.email))[0]?.template).toBe('totp_removed');
    const row = await t.ctx.db
      .selectFrom('users')
      .select(['totp_secret', 'totp_enabled_at', 'totp_last_step'])
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_secret: null, totp_enabled_at: null, totp_last_step: null });
    t.clock.advance(13 * 60_000);
    const { client, data } = await halfSignedIn(me);
    // The recovery codes made with the app stay until used or replaced.
    expect(data.data.two_factor_providers).toEqual(['email', 'sms', 'recovery_code']);
    const code = codeAt(me.app, t.clock.now());
    expect((await client.post('/api/mfa/verify', { provider: 'totp', code })).statusCode).toBe(400);
    const none = await me.client.request({
      method: 'DELETE',
      url: '/api/me/totp',
      payload: { currentPassword: me.password },
    });
    expect(none.statusCode).toBe(404);
  });

  it('serves as the step-up: a TOTP code proves the session for 5 minutes', async () => {
    const me = await enrolled();
    t.clock.advance(6 * 60_000);
    expect((await me.client.post('/api/me/totp', {})).statusCode).toBe(403);
    const step = await me.client.post('/api/session/second-factor/verify', {
      provider: 'totp',
      code: codeAt(me.app, t.clock.now()),
    });
    expect(step.statusCode).toBe(200);
    const remove = await me.client.request({ method: 'DELETE', url: '/api/me/totp', payload: {} });
    expect(remove.statusCode).toBe(200);
  });
});
