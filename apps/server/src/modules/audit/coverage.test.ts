// The audit trail of issue #14, driven through the real routes: one event for every security
// event of a person's life, each with its actor, target, address, request id — and no personal
// data in its details.
import http from 'node:http';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_ATTEMPTS } from '../../messaging/dispatcher.js';
import { createUser, DIALECTS, lastCode, signIn, TestClient } from '../../test/helpers.js';
import type { ListeningApp, Browser } from '../oidc/test-support.js';
import {
  authorizationRequest,
  listeningTestApp,
  registerPlatform,
  relyingParty,
  signedInBrowser,
} from '../oidc/test-support.js';

const PASSWORD = 'Audit-Passw0rd-1';
const NEW_PASSWORD = 'Brisk-Lantern-58';
const IP = '127.0.0.1';
/** What createUser gives every person: it must never appear in an event's details. */
const PERSON_DATA = ['Jeanne', 'Martin', '1980-05-17', PASSWORD, NEW_PASSWORD];

interface Event {
  action: string;
  actor_id: string | null;
  target_id: string | null;
  ip: string | null;
  request_id: string | null;
  user_agent: string | null;
  details: string | null;
}

/** A platform's back-channel logout endpoint: counts notices, refuses while `refuse` is set. */
function logoutEndpoint() {
  let refuse = false;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(refuse ? 500 : 200).end());
  });
  return {
    server,
    refuseAll: (value: boolean) => (refuse = value),
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (typeof address !== 'object' || !address) throw new Error('not listening');
      return `http://127.0.0.1:${address.port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(DIALECTS)('audit trail coverage on %s', (dialect) => {
  let t: ListeningApp;
  let admin: TestClient;
  const endpoint = logoutEndpoint();

  beforeAll(async () => {
    const endpointBase = await endpoint.start();
    // No reuse grace: a refresh token presented again after its rotation is a reuse at once.
    t = await listeningTestApp(dialect, { OIDC_REFRESH_REUSE_GRACE_SECONDS: '0' });
    admin = new TestClient(t.app);
    await signIn(t, admin);
    endpointBaseUrl = endpointBase;
  });
  let endpointBaseUrl = '';
  afterAll(async () => {
    await t.close();
    await endpoint.stop();
  });

  /** The events about a user (or with no target), oldest first. */
  async function eventsAbout(userId: string | null): Promise<Event[]> {
    const query = t.ctx.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'target_id', 'ip', 'request_id', 'user_agent', 'details'])
      .orderBy('at')
      .orderBy('id');
    return userId === null
      ? query.where('target_id', 'is', null).execute()
      : query.where('target_id', '=', userId).execute();
  }

  /** An event's details as an object (they are always one). */
  function detailsOf(event: Pick<Event, 'details'>): Record<string, unknown> {
    const parsed: unknown = JSON.parse(event.details ?? '{}');
    return typeof parsed === 'object' && parsed !== null
      ? Object.fromEntries(Object.entries(parsed))
      : {};
  }

  /** The one event of `action` about the user that the request answered by `res` recorded. */
  async function eventOf(userId: string | null, action: string, res?: LightMyRequestResponse) {
    const requestId = res?.headers['x-request-id'];
    const events = (await eventsAbout(userId)).filter(
      (e) => e.action === action && (requestId === undefined || e.request_id === requestId),
    );
    expect(events, `${action} recorded once`).toHaveLength(1);
    const [event] = events;
    if (!event) throw new Error(action);
    return { ...event, details: event.details === null ? null : detailsOf(event) };
  }

  /** No event about the user carries what identifies the person, what they typed, or a code. */
  async function expectNoPersonalData(userId: string, secrets: string[]) {
    for (const event of await eventsAbout(userId)) {
      for (const secret of [...PERSON_DATA, ...secrets]) {
        expect(event.details ?? '', `${event.action} details`).not.toContain(secret);
      }
    }
  }

  function login(session: TestClient, username: string, password: string, ip = IP) {
    return session.request({
      method: 'POST',
      url: '/api/login',
      payload: { username, password },
      remoteAddress: ip,
      headers: { 'user-agent': 'AuditTest/1.0' },
    });
  }

  it('records why each sign-in failed, never what was typed', async () => {
    const people = {
      locked: await createUser(t, {
        email: 'locked@audit.test',
        password: PASSWORD,
        status: 'locked',
      }),
      disabled: await createUser(t, {
        email: 'disabled@audit.test',
        password: PASSWORD,
        status: 'disabled',
      }),
      pending: await createUser(t, {
        email: 'pending@audit.test',
        password: PASSWORD,
        status: 'pending_validation',
      }),
      throttled: await createUser(t, { email: 'slow@audit.test', password: PASSWORD }),
    };
    const session = new TestClient(t.app);

    const wrong = await login(session, 'slow@audit.test', 'Not-The-Passw0rd');
    expect(wrong.json()).toMatchObject({ code: 'bad_credentials' });
    expect(await eventOf(people.throttled, 'login_failed', wrong)).toMatchObject({
      actor_id: null,
      ip: IP,
      request_id: wrong.headers['x-request-id'],
      user_agent: 'AuditTest/1.0',
      details: { reason: 'bad_credentials' },
    });

    const unknown = await login(session, 'nobody@audit.test', 'Not-The-Passw0rd');
    expect(unknown.json()).toMatchObject({ code: 'bad_credentials' });
    const anonymous = await eventOf(null, 'login_failed', unknown);
    expect(anonymous).toMatchObject({ ip: IP, details: { reason: 'bad_credentials' } });
    expect(JSON.stringify(anonymous)).not.toContain('nobody@audit.test');

    for (const [who, email, reason] of [
      [people.locked, 'locked@audit.test', 'account_locked'],
      [people.disabled, 'disabled@audit.test', 'account_disabled'],
      [people.pending, 'pending@audit.test', 'account_pending_validation'],
    ] as const) {
      const res = await login(session, email, PASSWORD);
      expect(res.json()).toMatchObject({ code: reason });
      expect(await eventOf(who, 'login_failed', res)).toMatchObject({
        ip: IP,
        details: { reason },
      });
    }

    // From another address: 5 free attempts, then the sixth is refused before the password.
    const from = '10.0.0.7';
    for (let i = 0; i < 5; i++)
      await login(session, 'slow@audit.test', `Wrong-Passw0rd-${i}`, from);
    const refused = await login(session, 'slow@audit.test', PASSWORD, from);
    expect(refused.statusCode).toBe(429);
    expect(await eventOf(people.throttled, 'login_failed', refused)).toMatchObject({
      ip: from,
      details: { reason: 'throttled' },
    });
    for (const id of Object.values(people)) await expectNoPersonalData(id, ['slow@audit.test']);
  });

  it("follows a person's life: second factor, trusted browser, terms, e-mail, phone, password, device and key", async () => {
    const email = 'life@audit.test';
    const phone = '+33655001001';
    const userId = await createUser(t, { email, password: PASSWORD, phone, cguVersion: null });
    const session = new TestClient(t.app);
    const secrets = [email, phone];

    const first = await login(session, email, PASSWORD);
    expect(first.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    expect(await eventOf(userId, 'login', first)).toMatchObject({ actor_id: userId, ip: IP });

    const sent = await session.post('/api/mfa/send', { provider: 'email' });
    expect(sent.statusCode).toBe(200);
    expect(await eventOf(userId, 'second_factor_sent', sent)).toMatchObject({
      actor_id: userId,
      ip: IP,
      request_id: sent.headers['x-request-id'],
      details: { channel: 'email' },
    });
    const code = await lastCode(t, email);
    secrets.push(code);
    const failed = await session.post('/api/mfa/verify', {
      provider: 'email',
      code: code === '000000' ? '111111' : '000000',
    });
    expect(failed.json()).toMatchObject({ code: 'wrong_code' });
    expect(await eventOf(userId, 'second_factor_failed', failed)).toMatchObject({
      actor_id: userId,
      ip: IP,
      details: { channel: 'email', reason: 'wrong_code' },
    });
    const passed = await session.post('/api/mfa/verify', {
      provider: 'email',
      code,
      trustDevice: true,
    });
    expect(passed.json()).toMatchObject({ code: 'cgu_not_accepted' });
    expect(await eventOf(userId, 'second_factor_passed', passed)).toMatchObject({
      actor_id: userId,
      ip: IP,
      details: { channel: 'email', trustedDevice: true },
    });
    const trusted = await eventOf(userId, 'trusted_device_added', passed);
    expect(trusted).toMatchObject({
      actor_id: userId,
      ip: IP,
      details: { deviceId: expect.any(String), days: expect.any(Number) },
    });

    const { version, hash } = (await session.get('/api/cgu')).json<{
      version: string;
      hash: string;
    }>();
    const accepted = await session.post('/api/cgu/accept', { version, hash });
    expect(accepted.statusCode).toBe(200);
    expect(await eventOf(userId, 'cgu_accepted', accepted)).toMatchObject({
      actor_id: userId,
      ip: IP,
      details: { version, language: 'fr' },
    });
    expect(await eventOf(userId, 'sign_in_completed', accepted)).toMatchObject({ ip: IP });

    // E-mail change, confirmed by the code sent to the new address.
    const newEmail = 'life-new@audit.test';
    secrets.push(newEmail);
    t.clock.advance(2 * 60_000);
    await session.post('/api/profile/email', { email: newEmail, currentPassword: PASSWORD });
    const emailCode = await lastCode(t, newEmail);
    secrets.push(emailCode);
    const emailDone = await session.post('/api/profile/email/verify', { code: emailCode });
    expect(emailDone.statusCode).toBe(200);
    expect(await eventOf(userId, 'email_changed', emailDone)).toMatchObject({
      actor_id: userId,
      ip: IP,
    });

    // Phone change, confirmed by the SMS code.
    const newPhone = '+33655001002';
    secrets.push(newPhone);
    await session.post('/api/profile/phone', { phone: newPhone, currentPassword: PASSWORD });
    const smsCode = await lastCode(t, newPhone);
    secrets.push(smsCode);
    const phoneDone = await session.post('/api/profile/phone/verify', { code: smsCode });
    expect(phoneDone.statusCode).toBe(200);
    expect(await eventOf(userId, 'phone_changed', phoneDone)).toMatchObject({
      actor_id: userId,
      ip: IP,
    });

    // The trusted browser removed, then a key revoked.
    const removed = await session.request({
      method: 'DELETE',
      url: `/api/devices/${String(trusted.details?.deviceId)}`,
    });
    expect(removed.statusCode).toBeLessThan(300);
    expect(await eventOf(userId, 'trusted_device_revoked', removed)).toMatchObject({
      actor_id: userId,
      ip: IP,
      details: { deviceId: trusted.details?.deviceId },
    });
    await t.ctx.db
      .insertInto('credentials')
      .values({
        id: 'key-1',
        user_id: userId,
        kind: 'webauthn',
        credential_id: 'cred-1',
        public_key: 'pk',
        counter: 0,
        transports: null,
        device_name: 'Jeanne’s phone',
        user_verifying: 1,
        created_at: t.clock.now(),
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    const revoked = await session.request({
      method: 'DELETE',
      url: '/api/biometrics/credentials/key-1',
    });
    expect(revoked.statusCode).toBeLessThan(300);
    expect(await eventOf(userId, 'biometric_revoked', revoked)).toMatchObject({
      actor_id: userId,
      ip: IP,
      details: { credentialId: 'key-1' },
    });

    const changed = await session.post('/api/profile/password', {
      currentPassword: PASSWORD,
      password: NEW_PASSWORD,
      passwordConfirmation: NEW_PASSWORD,
    });
    expect(changed.json()).toEqual({ ok: true });
    expect(await eventOf(userId, 'password_changed', changed)).toMatchObject({
      actor_id: userId,
      ip: IP,
    });

    await expectNoPersonalData(userId, [...secrets, 'Jeanne’s phone']);
  });

  it('records the person downloading their data, then deleting their account (without their address)', async () => {
    const email = 'mydata@audit.test';
    const userId = await createUser(t, { email, password: PASSWORD, phone: '+33655001009' });
    const session = new TestClient(t.app);
    expect((await signIn(t, session, email, PASSWORD)).statusCode).toBe(200);

    const exported = await session.request({
      method: 'GET',
      url: '/api/me/export',
      headers: { 'user-agent': 'AuditTest/1.0' },
    });
    expect(exported.statusCode).toBe(200);
    expect(await eventOf(userId, 'data_exported', exported)).toMatchObject({
      actor_id: userId,
      ip: IP,
      user_agent: 'AuditTest/1.0',
      request_id: exported.headers['x-request-id'],
      details: null,
    });

    const deleted = await session.request({
      method: 'DELETE',
      url: '/api/me',
      payload: { password: PASSWORD },
      headers: { 'user-agent': 'AuditTest/1.0' },
    });
    expect(deleted.json()).toEqual({ ok: true });
    // The person's own act, kept without the address and browser erased with the account.
    expect(await eventOf(userId, 'account_deleted', deleted)).toMatchObject({
      actor_id: userId,
      ip: null,
      user_agent: null,
      request_id: deleted.headers['x-request-id'],
      details: null,
    });
    const left = (await eventsAbout(userId)).filter((e) => e.actor_id === userId);
    expect(left.every((e) => e.ip === null && e.user_agent === null)).toBe(true);
    await expectNoPersonalData(userId, [email]);
  });

  it('records the password expiry stage when it starts, then the renewal', async () => {
    const set = await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/PASSWORD_EXPIRATION_DELAY',
      payload: { value: 90 * 24 * 3600 },
    });
    expect(set.statusCode).toBe(200);
    const email = 'aging@audit.test';
    const userId = await createUser(t, {
      email,
      password: PASSWORD,
      phone: '+33655001009',
      passwordChangedAt: t.clock.now() - 100 * 24 * 3600_000,
    });
    const session = new TestClient(t.app);
    const expired = await signIn(t, session, email, PASSWORD);
    expect(expired.json()).toMatchObject({ code: 'password_expired' });
    expect(await eventOf(userId, 'password_expired')).toMatchObject({
      actor_id: userId,
      ip: IP,
      request_id: expect.any(String),
    });
    const renewed = await session.post('/api/password/renew', {
      password: NEW_PASSWORD,
      passwordConfirmation: NEW_PASSWORD,
    });
    expect(renewed.statusCode).toBe(200);
    expect(await eventOf(userId, 'password_renewed', renewed)).toMatchObject({ actor_id: userId });
    // Said once: the stage had started already.
    expect((await eventsAbout(userId)).filter((e) => e.action === 'password_expired')).toHaveLength(
      1,
    );
    const reset = await admin.request({
      method: 'DELETE',
      url: '/api/admin/settings/PASSWORD_EXPIRATION_DELAY',
    });
    expect(reset.statusCode).toBe(200);
    await expectNoPersonalData(userId, [email]);
  });

  it('records consent to a platform, a revoked token, a reused refresh token and back-channel logouts', async () => {
    const platform = await registerPlatform(admin, {
      name: 'Partner',
      firstParty: false,
      backchannelLogoutUri: `${endpointBaseUrl}/partner/logout`,
    });
    const rp = await relyingParty(t.base, platform);
    const callback = platform.redirectUris[0] ?? '';
    const person = { email: 'oidc@audit.test', password: PASSWORD, phone: '+33655001003' };
    const { browser, userId } = await signedInBrowser(t, person);

    /** The consent page, "allow", and the code exchanged: the platform's tokens. */
    async function consentAndTokens(browser: Browser) {
      const start = await authorizationRequest(rp, callback, 'openid email');
      const page = await browser.follow(start.url.href, t.base);
      const html = (await page.response?.text()) ?? '';
      const allowed = await browser.postForm(
        new URL(/action="([^"]+)"/.exec(html)?.[1] ?? '', t.base).href,
        { token: /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '', decision: 'allow' },
      );
      expect(allowed.status).toBe(303);
      const back = await browser.follow(
        new URL(allowed.headers.get('location') ?? '', t.base).href,
        t.base,
      );
      return client.authorizationCodeGrant(rp, back.url, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      });
    }

    const first = await consentAndTokens(browser);
    expect(await eventOf(userId, 'oidc_consent_given')).toMatchObject({
      actor_id: userId,
      ip: IP,
      request_id: expect.any(String),
      details: { platformId: platform.id, scopes: ['openid', 'email'] },
    });

    // A refresh token presented again after its rotation: a reuse, and the grant revoked.
    const old = first.refresh_token ?? '';
    await client.refreshTokenGrant(rp, old);
    await expect(client.refreshTokenGrant(rp, old)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await eventOf(userId, 'refresh_token_reused')).toMatchObject({
      actor_id: null,
      ip: IP,
      request_id: expect.any(String),
      details: { clientId: platform.clientId },
    });

    // Consent again (the grant is gone); the platform then revokes its refresh token.
    const second = await consentAndTokens(browser);
    await client.tokenRevocation(rp, second.refresh_token ?? '');
    const revocations = (await eventsAbout(userId)).filter(
      (e) => e.action === 'oidc_grant_revoked',
    );
    expect(revocations.map((e) => detailsOf(e))).toEqual([
      { clientId: platform.clientId, reason: 'reuse' },
      { clientId: platform.clientId, reason: 'token_revoked' },
    ]);
    expect(revocations.map((e) => [e.actor_id, e.ip])).toEqual([
      [null, IP],
      [null, IP],
    ]);

    // Signing out of the portal queues the platform's notice; the outbox sends it.
    expect((await browser.get(`${t.base}/api/logout`)).status).toBe(303);
    expect(await eventOf(userId, 'backchannel_logout_queued')).toMatchObject({
      details: { clientId: platform.clientId },
    });
    await t.dispatcher.runOnce();
    expect(await eventOf(userId, 'backchannel_logout_sent')).toMatchObject({
      actor_id: null,
      details: { clientId: platform.clientId },
    });

    // A notice the platform never takes: the outbox gives up, and says so.
    const signedInAgain = await signedInBrowser(t, {
      ...person,
      email: 'oidc2@audit.test',
      phone: '+33655001004',
    });
    await consentAndTokens(signedInAgain.browser);
    await signedInAgain.browser.get(`${t.base}/api/logout`);
    await t.ctx.db
      .updateTable('outbox')
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where('channel', '=', 'logout')
      .where('status', '=', 'pending')
      .execute();
    endpoint.refuseAll(true);
    await t.dispatcher.runOnce();
    endpoint.refuseAll(false);
    expect(await eventOf(signedInAgain.userId, 'backchannel_logout_failed')).toMatchObject({
      details: { clientId: platform.clientId, status: 'failed' },
    });

    await expectNoPersonalData(userId, [person.email, person.phone]);
    await expectNoPersonalData(signedInAgain.userId, ['oidc2@audit.test', '+33655001004']);
  });
});
