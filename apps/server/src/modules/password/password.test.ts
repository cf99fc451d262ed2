import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';

describe.each(DIALECTS)('forgotten password on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function resetCode(
    client: TestClient,
    username: string,
    channel: 'email' | 'sms',
    to: string,
  ) {
    t.clock.advance(13 * 60_000);
    const sent = await client.post('/api/password/forgot', { username, channel });
    expect(sent.json()).toEqual({ destination: '', retryAfterSeconds: 60 });
    return lastCode(t, to);
  }

  it('resets by SMS: code, new password, every session and trusted device revoked, notice sent', async () => {
    await createUser(t, {
      email: 'forgot@hygie.test',
      password: 'Old-Passw0rd-1',
      phone: '+33633445566',
    });
    const elsewhere = new TestClient(t.app);
    expect(
      (await signIn(t, elsewhere, 'forgot@hygie.test', 'Old-Passw0rd-1', { trustDevice: true }))
        .statusCode,
    ).toBe(200);

    const client = new TestClient(t.app);
    const code = await resetCode(client, '06 33 44 55 66', 'sms', '+33633445566');
    const verified = await client.post('/api/password/forgot/verify', {
      username: '06 33 44 55 66',
      channel: 'sms',
      code,
    });
    const { resetToken } = verified.json<{ resetToken: string }>();
    expect(resetToken).toMatch(/^[\w-]{43}$/);
    const reset = await client.post('/api/password/reset', {
      resetToken,
      password: 'New-Passw0rd-2',
      passwordConfirmation: 'New-Passw0rd-2',
    });
    expect(reset.json()).toEqual({ ok: true });

    expect((await elsewhere.get('/api/me')).statusCode).toBe(401);
    const devices = await t.ctx.db
      .selectFrom('trusted_devices')
      .innerJoin('users', 'users.id', 'trusted_devices.user_id')
      .select('trusted_devices.id')
      .where('users.email', '=', 'forgot@hygie.test')
      .execute();
    expect(devices).toHaveLength(0);
    expect(
      (await new TestClient(t.app).login('forgot@hygie.test', 'Old-Passw0rd-1')).json(),
    ).toMatchObject({ code: 'bad_credentials' });
    // The reset does not bypass the second factor, even on the formerly trusted browser.
    expect((await elsewhere.login('forgot@hygie.test', 'New-Passw0rd-2')).json()).toMatchObject({
      code: 'two_factor_authentication_required',
    });
    expect((await messagesTo(t, 'forgot@hygie.test'))[0]).toMatchObject({
      template: 'password_changed',
    });
    // single use
    const again = await client.post('/api/password/reset', {
      resetToken,
      password: 'Newer-Passw0rd-3',
      passwordConfirmation: 'Newer-Passw0rd-3',
    });
    expect(again.json()).toMatchObject({ code: 'link_expired' });
  });

  it('resets by e-mail', async () => {
    await createUser(t, {
      email: 'forgot-mail@hygie.test',
      password: 'Old-Passw0rd-1',
      phone: '+33633445567',
    });
    const client = new TestClient(t.app);
    const code = await resetCode(
      client,
      'forgot-mail@hygie.test',
      'email',
      'forgot-mail@hygie.test',
    );
    const { resetToken } = (
      await client.post('/api/password/forgot/verify', {
        username: 'forgot-mail@hygie.test',
        channel: 'email',
        code,
      })
    ).json<{ resetToken: string }>();
    expect(
      (
        await client.post('/api/password/reset', {
          resetToken,
          password: 'New-Passw0rd-2',
          passwordConfirmation: 'New-Passw0rd-2',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('answers unknown accounts exactly like known ones, and says how long to wait', async () => {
    await createUser(t, {
      email: 'known-forgot@hygie.test',
      password: 'Old-Passw0rd-1',
      phone: '+33633445568',
    });
    t.clock.advance(13 * 60_000);
    const known = await new TestClient(t.app).post('/api/password/forgot', {
      username: 'known-forgot@hygie.test',
      channel: 'email',
    });
    const unknown = await new TestClient(t.app).post('/api/password/forgot', {
      username: 'nobody-forgot@hygie.test',
      channel: 'email',
    });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    t.clock.advance(10_000);
    const knownAgain = await new TestClient(t.app).post('/api/password/forgot', {
      username: 'known-forgot@hygie.test',
      channel: 'email',
    });
    const unknownAgain = await new TestClient(t.app).post('/api/password/forgot', {
      username: 'nobody-forgot@hygie.test',
      channel: 'email',
    });
    expect(knownAgain.statusCode).toBe(429);
    expect(knownAgain.body).toBe(unknownAgain.body);
    expect(knownAgain.json()).toMatchObject({
      code: 'wait_before_retry',
      data: { retryAfterSeconds: 50 },
    });
    const verifyUnknown = await new TestClient(t.app).post('/api/password/forgot/verify', {
      username: 'nobody-forgot@hygie.test',
      channel: 'email',
      code: '123456',
    });
    expect(verifyUnknown.json()).toMatchObject({ code: 'code_invalid' });
  });

  it('makes the user restart after 5 wrong codes', async () => {
    await createUser(t, {
      email: 'trials@hygie.test',
      password: 'Old-Passw0rd-1',
      phone: '+33633445569',
    });
    const client = new TestClient(t.app);
    const code = await resetCode(client, 'trials@hygie.test', 'email', 'trials@hygie.test');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++)
      await client.post('/api/password/forgot/verify', {
        username: 'trials@hygie.test',
        channel: 'email',
        code: wrong,
      });
    const fifth = await client.post('/api/password/forgot/verify', {
      username: 'trials@hygie.test',
      channel: 'email',
      code: wrong,
    });
    // Anonymous: every refusal answers code_invalid, known name or not (attacks/enumeration).
    expect(fifth.json()).toMatchObject({ code: 'code_invalid' });
    // The fifth wrong try ended the code: the right one no longer opens the reset.
    const right = await client.post('/api/password/forgot/verify', {
      username: 'trials@hygie.test',
      channel: 'email',
      code,
    });
    expect(right.json()).toMatchObject({ code: 'code_invalid' });
    expect(right.json()).not.toHaveProperty('resetToken');
  });

  it('refuses a weak or common new password and an expired reset token', async () => {
    await createUser(t, {
      email: 'weak@hygie.test',
      password: 'Old-Passw0rd-1',
      phone: '+33633445570',
    });
    const client = new TestClient(t.app);
    const code = await resetCode(client, 'weak@hygie.test', 'email', 'weak@hygie.test');
    const { resetToken } = (
      await client.post('/api/password/forgot/verify', {
        username: 'weak@hygie.test',
        channel: 'email',
        code,
      })
    ).json<{ resetToken: string }>();
    const common = await client.post('/api/password/reset', {
      resetToken,
      password: 'Azerty123',
      passwordConfirmation: 'Azerty123',
    });
    expect(common.statusCode).toBe(400);
    const mismatch = await client.post('/api/password/reset', {
      resetToken,
      password: 'Fine-Passw0rd-7',
      passwordConfirmation: 'Fine-Passw0rd-8',
    });
    expect(mismatch.json()).toMatchObject({
      data: { fields: [{ path: 'passwordConfirmation', message: 'passwords_must_match' }] },
    });
    t.clock.advance(16 * 60_000);
    const late = await client.post('/api/password/reset', {
      resetToken,
      password: 'Fine-Passw0rd-7',
      passwordConfirmation: 'Fine-Passw0rd-7',
    });
    expect(late.json()).toMatchObject({ code: 'link_expired' });
  });

  it('refuses the current password as the new one, and the token still works for another', async () => {
    await createUser(t, {
      email: 'same@hygie.test',
      password: 'Old-Passw0rd-1',
      phone: '+33633445571',
    });
    const client = new TestClient(t.app);
    const code = await resetCode(client, 'same@hygie.test', 'email', 'same@hygie.test');
    const { resetToken } = (
      await client.post('/api/password/forgot/verify', {
        username: 'same@hygie.test',
        channel: 'email',
        code,
      })
    ).json<{ resetToken: string }>();
    const same = await client.post('/api/password/reset', {
      resetToken,
      password: 'Old-Passw0rd-1',
      passwordConfirmation: 'Old-Passw0rd-1',
    });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ code: 'password_must_differ' });
    expect(await messagesTo(t, 'same@hygie.test')).not.toContainEqual(
      expect.objectContaining({ template: 'password_changed' }),
    );
    const other = await client.post('/api/password/reset', {
      resetToken,
      password: 'New-Passw0rd-2',
      passwordConfirmation: 'New-Passw0rd-2',
    });
    expect(other.statusCode).toBe(200);
    expect(
      (await signIn(t, new TestClient(t.app), 'same@hygie.test', 'New-Passw0rd-2')).statusCode,
    ).toBe(200);
  });
});

describe.each(DIALECTS)('first login and lock account on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('lets an invited person create a password from the link, once', async () => {
    const { inviteUser } = await import('../first-login/invite.js');
    const { link } = await inviteUser(t.ctx, {
      email: 'Invited@Hygie.test',
      firstName: 'Inès',
      profile: null,
    });
    const url = new URL(link);
    const params = Object.fromEntries(url.searchParams);
    expect((await messagesTo(t, 'invited@hygie.test'))[0]).toMatchObject({
      template: 'first_login_invitation',
      params: { link },
    });
    const client = new TestClient(t.app);
    const info = await client.get(`/api/first-login?${url.searchParams.toString()}`);
    expect(info.json()).toEqual({ email: 'invited@hygie.test', firstName: 'Inès' });
    // An invited account cannot sign in before it has a password.
    expect((await client.login('invited@hygie.test', 'Anything-Passw0rd1')).json()).toMatchObject({
      code: 'bad_credentials',
    });
    const set = await client.post('/api/first-login', {
      ...params,
      password: 'First-Passw0rd-5',
      passwordConfirmation: 'First-Passw0rd-5',
    });
    expect(set.json()).toEqual({ ok: true });
    const again = await client.post('/api/first-login', {
      ...params,
      password: 'First-Passw0rd-6',
      passwordConfirmation: 'First-Passw0rd-6',
    });
    expect(again.json()).toMatchObject({ code: 'link_expired' });
    expect((await client.login('invited@hygie.test', 'First-Passw0rd-5')).json()).toMatchObject({
      code: 'two_factor_authentication_required',
    });
  });

  it('answers a wrong, foreign or expired link with link_expired', async () => {
    const { inviteUser } = await import('../first-login/invite.js');
    const { link } = await inviteUser(t.ctx, { email: 'late@hygie.test' });
    const p = new URL(link).searchParams;
    const query = (over: Record<string, string>) =>
      new URLSearchParams({ ...Object.fromEntries(p), ...over }).toString();
    for (const q of [
      query({ code: 'x'.repeat(43) }),
      query({ email: 'other@hygie.test' }),
      query({ personIdentifier: 'nobody' }),
    ]) {
      const res = await new TestClient(t.app).get(`/api/first-login?${q}`);
      expect(res.json()).toMatchObject({ code: 'link_expired' });
    }
    t.clock.advance(7 * 24 * 60 * 60_000);
    expect(
      (await new TestClient(t.app).get(`/api/first-login?${p.toString()}`)).json(),
    ).toMatchObject({ code: 'link_expired' });
  });

  it('locks the account from the sign-in notice link: sessions and devices revoked, login refused', async () => {
    await createUser(t, {
      email: 'victim@hygie.test',
      password: 'Victim-Passw0rd-1',
      phone: '+33644556677',
    });
    const attacker = new TestClient(t.app);
    expect(
      (await signIn(t, attacker, 'victim@hygie.test', 'Victim-Passw0rd-1', { trustDevice: true }))
        .statusCode,
    ).toBe(200);
    const notice = (await messagesTo(t, 'victim@hygie.test')).find(
      (m) => m.template === 'sign_in_notice',
    );
    const lockUrl = new URL(notice?.params.lockUrl ?? '');
    const owner = new TestClient(t.app);
    const res = await owner.post('/api/lock-account', {
      email: lockUrl.searchParams.get('email'),
      code: lockUrl.searchParams.get('code'),
    });
    expect(res.json()).toEqual({ username: 'victim@hygie.test' });
    expect((await attacker.get('/api/me')).statusCode).toBe(401);
    const login = await attacker.login('victim@hygie.test', 'Victim-Passw0rd-1');
    expect(login.statusCode).toBe(423);
    expect(login.json()).toMatchObject({
      code: 'account_locked',
      data: { contactEmail: 'support@hygie.local' },
    });
    const devices = await t.ctx.db
      .selectFrom('trusted_devices')
      .innerJoin('users', 'users.id', 'trusted_devices.user_id')
      .select('trusted_devices.id')
      .where('users.email', '=', 'victim@hygie.test')
      .execute();
    expect(devices).toHaveLength(0);
    expect((await messagesTo(t, 'victim@hygie.test'))[0]).toMatchObject({
      template: 'account_locked',
    });
    const reuse = await owner.post('/api/lock-account', {
      email: 'victim@hygie.test',
      code: lockUrl.searchParams.get('code'),
    });
    expect(reuse.json()).toMatchObject({ code: 'link_expired' });
  });

  it('locks from a signed-in browser too, and disconnects it', async () => {
    await createUser(t, {
      email: 'self@hygie.test',
      password: 'Self-Passw0rd-1',
      phone: '+33644556678',
    });
    const client = new TestClient(t.app);
    await signIn(t, client, 'self@hygie.test', 'Self-Passw0rd-1');
    const notice = (await messagesTo(t, 'self@hygie.test')).find(
      (m) => m.template === 'sign_in_notice',
    );
    const lockUrl = new URL(notice?.params.lockUrl ?? '');
    const res = await client.post('/api/lock-account', {
      email: 'self@hygie.test',
      code: lockUrl.searchParams.get('code'),
    });
    expect(res.statusCode).toBe(200);
    expect(client.cookies.has('hygie_session')).toBe(false);
  });

  it('refuses a lock link for another address', async () => {
    await createUser(t, {
      email: 'other-lock@hygie.test',
      password: 'Other-Passw0rd-1',
      phone: '+33644556679',
    });
    await signIn(t, new TestClient(t.app), 'other-lock@hygie.test', 'Other-Passw0rd-1');
    const notice = (await messagesTo(t, 'other-lock@hygie.test')).find(
      (m) => m.template === 'sign_in_notice',
    );
    const code = new URL(notice?.params.lockUrl ?? '').searchParams.get('code');
    const res = await new TestClient(t.app).post('/api/lock-account', {
      email: 'victim@hygie.test',
      code,
    });
    expect(res.json()).toMatchObject({ code: 'link_expired' });
  });
});
