import * as client from 'openid-client';
import { URI, type TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assurance, CreatedPlatform } from '@hygie/domain';
import { createUser, DIALECTS, lastCode, signIn, TestClient } from '../../test/helpers.js';
import { ACR } from '../oidc/assurance.js';
import type { ListeningApp } from '../oidc/test-support.js';
import {
  authorizationRequest,
  Browser,
  listeningTestApp,
  registerPlatform,
  relyingParty,
} from '../oidc/test-support.js';

// Levels of assurance (issue #20, items 3 and 4): a platform's minimum level and a request's acr
// send a session below it to the step-up screen; the step-up with the authenticator app raises
// it, and the ID token says the level reached; the cancel ends the interaction with
// unmet_authentication_requirements; a user without a strong means is told how to enrol one;
// the account area's minimum; the admin's settings and the platforms' minimum.

describe.each(DIALECTS)('levels of assurance on %s', (dialect) => {
  let t: ListeningApp;
  let admin: TestClient;
  let sensitive: CreatedPlatform;
  let plain: CreatedPlatform;
  let rpSensitive: client.Configuration;
  let rpPlain: client.Configuration;
  let seq = 0;
  const sensitiveCallback = 'http://127.0.0.1:9/dossier/callback';
  const plainCallback = 'http://127.0.0.1:9/agenda/callback';

  beforeAll(async () => {
    t = await listeningTestApp(dialect);
    admin = new TestClient(t.app);
    await signIn(t, admin);
    sensitive = await registerPlatform(admin, {
      name: 'Dossier',
      redirectUris: [sensitiveCallback],
      minimumLevel: 'substantial',
    });
    plain = await registerPlatform(admin, { name: 'Agenda', redirectUris: [plainCallback] });
    rpSensitive = await relyingParty(t.base, sensitive);
    rpPlain = await relyingParty(t.base, plain);
  });
  afterAll(() => t.close());

  const codeAt = (app: TOTP, ms: number) => app.generate({ timestamp: ms });

  /** A person signed in with the password and a code by SMS (the level `low`). */
  async function smsSignedIn() {
    seq += 1;
    const email = `level-${seq}@hygie.test`;
    const password = `Level-Passw0rd-${seq}`;
    const id = await createUser(t, { email, password, phone: `+336573000${10 + seq}` });
    const portal = new TestClient(t.app);
    t.clock.advance(13 * 60_000);
    const half = await portal.login(email, password);
    expect(half.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    expect((await portal.post('/api/mfa/send', { provider: 'sms' })).statusCode).toBe(200);
    const verified = await portal.post('/api/mfa/verify', {
      provider: 'sms',
      code: await lastCode(t, `+336573000${10 + seq}`),
    });
    expect(verified.statusCode).toBe(200);
    return { id, email, password, portal };
  }

  /** Enrols an authenticator app on the signed-in account; the app to compute codes with. */
  async function enrolApp(me: { portal: TestClient; password: string }): Promise<TOTP> {
    const res = await me.portal.post('/api/me/totp', { currentPassword: me.password });
    expect(res.statusCode).toBe(200);
    const parsed = URI.parse(res.json<{ otpauthUri: string }>().otpauthUri);
    if (!('period' in parsed)) throw new Error('not a TOTP URI');
    const confirmed = await me.portal.post('/api/me/totp/confirm', {
      code: codeAt(parsed, t.clock.now()),
    });
    expect(confirmed.statusCode).toBe(200);
    // The confirmation used this step: the next code is a later step's.
    t.clock.advance(60_000);
    return parsed;
  }

  async function tokensAt(
    rp: client.Configuration,
    callback: URL,
    start: { verifier: string; state: string },
  ) {
    const tokens = await client.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return tokens.claims();
  }

  it('steps a password + SMS session up with the authenticator app for a platform requiring substantial', async () => {
    const me = await smsSignedIn();
    const app = await enrolApp(me);
    const browser = new Browser(me.portal.cookies);
    expect((await me.portal.get('/api/me/assurance')).json()).toEqual({
      level: 'low',
      amr: ['pwd', 'sms', 'mfa'],
      accountMinimum: null,
    });

    // A platform without a minimum takes the session as it is: low.
    const easy = await authorizationRequest(rpPlain, plainCallback, 'openid');
    const { url: easyCallback } = await browser.follow(easy.url.href, t.base);
    expect(await tokensAt(rpPlain, easyCallback, easy)).toMatchObject({
      acr: ACR.low,
      amr: ['pwd', 'sms', 'mfa'],
    });

    // The sensitive platform: the step-up screen, for substantial, coming back to the interaction.
    const start = await authorizationRequest(rpSensitive, sensitiveCallback, 'openid');
    const { url: stepUp } = await browser.follow(start.url.href, t.base);
    expect(stepUp.pathname).toBe('/security/step-up');
    expect(stepUp.searchParams.get('level')).toBe('substantial');
    expect(stepUp.searchParams.get('client_id')).toBe(sensitive.clientId);
    const target = stepUp.searchParams.get('target_uri') ?? '';
    expect(target).toMatch(new RegExp(`^${t.base}/oidc/interaction/[\\w-]+$`));
    // No silent downgrade: coming back without the step-up lands on the step-up screen again.
    expect((await browser.follow(target, t.base)).url.pathname).toBe('/security/step-up');

    const offered = (await me.portal.get('/api/me/assurance?level=substantial')).json<Assurance>();
    expect(offered).toMatchObject({ level: 'low', required: 'substantial', reached: false });
    expect(offered.means).toEqual([{ kind: 'totp' }]);
    expect(offered.enrolment).toEqual([{ kind: 'passkey' }]);

    const wrong = await me.portal.post('/api/me/assurance/totp', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'wrong_code' });
    const raised = await me.portal.post('/api/me/assurance/totp', {
      code: codeAt(app, t.clock.now()),
    });
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toEqual({ level: 'substantial' });
    expect((await me.portal.get('/api/me/assurance?level=substantial')).json()).toMatchObject({
      level: 'substantial',
      reached: true,
    });

    const { url: callback } = await browser.follow(target, t.base);
    expect(callback.origin + callback.pathname).toBe(sensitiveCallback);
    expect(await tokensAt(rpSensitive, callback, start)).toMatchObject({
      acr: ACR.substantial,
      amr: ['pwd', 'sms', 'otp', 'mfa'],
    });
    // The session's own list says it too.
    const sessions = (await me.portal.get('/api/me/sessions')).json<
      { level: string; current: boolean }[]
    >();
    expect(sessions.find((s) => s.current)?.level).toBe('substantial');
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('target_id', '=', me.id)
      .where('action', '=', 'second_factor_passed')
      .execute();
    expect(audit.some((e) => (e.details ?? '').includes('"stepUp":true'))).toBe(true);

    // The next sign-in to the plain platform says the level the session has now.
    const after = await authorizationRequest(rpPlain, plainCallback, 'openid');
    const { url: afterCallback } = await browser.follow(after.url.href, t.base);
    expect(await tokensAt(rpPlain, afterCallback, after)).toMatchObject({ acr: ACR.substantial });
  });

  it('asks the same of a request for substantial (acr_values, or an essential acr claim)', async () => {
    const me = await smsSignedIn();
    const browser = new Browser(me.portal.cookies);
    const requests: Record<string, string>[] = [
      { acr_values: ACR.substantial },
      {
        claims: JSON.stringify({
          id_token: { acr: { essential: true, values: [ACR.high, ACR.substantial] } },
        }),
      },
    ];
    for (const extra of requests) {
      const start = await authorizationRequest(rpPlain, plainCallback, 'openid', extra);
      const { url } = await browser.follow(start.url.href, t.base);
      expect(url.pathname).toBe('/security/step-up');
      expect(url.searchParams.get('level')).toBe('substantial');
    }
    // The former value asks for two factors: this session has them, and hears the value it asked.
    const legacy = await authorizationRequest(rpPlain, plainCallback, 'openid', {
      acr_values: ACR.twoFactors,
    });
    const { url: legacyCallback } = await browser.follow(legacy.url.href, t.base);
    expect(await tokensAt(rpPlain, legacyCallback, legacy)).toMatchObject({ acr: ACR.twoFactors });
  });

  it('gives a user with no strong means only enrolment, and the cancel ends the interaction with unmet_authentication_requirements', async () => {
    const me = await smsSignedIn();
    const answer = (await me.portal.get('/api/me/assurance?level=substantial')).json<Assurance>();
    expect(answer).toMatchObject({ level: 'low', required: 'substantial', reached: false });
    expect(answer.means).toEqual([]);
    expect(answer.enrolment).toEqual([{ kind: 'totp' }, { kind: 'passkey' }]);
    // High: no means of the portal's own reaches it, and no provider is configured here.
    const high = (await me.portal.get('/api/me/assurance?level=high')).json<Assurance>();
    expect(high).toMatchObject({ means: [], enrolment: [] });
    const bad = await me.portal.get('/api/me/assurance?level=medium');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_error' });

    const browser = new Browser(me.portal.cookies);
    const start = await authorizationRequest(rpSensitive, sensitiveCallback, 'openid');
    const { url: stepUp } = await browser.follow(start.url.href, t.base);
    const target = stepUp.searchParams.get('target_uri') ?? '';
    const { url: back } = await browser.follow(`${target}/abort`, t.base);
    expect(back.origin + back.pathname).toBe(sensitiveCallback);
    expect(back.searchParams.get('error')).toBe('unmet_authentication_requirements');
    expect(back.searchParams.get('state')).toBe(start.state);
  });

  it('refuses a user the access rule keeps out rather than asking them to step up', async () => {
    await signIn(t, admin);
    const closed = await registerPlatform(admin, {
      name: 'Réservé',
      accessPolicy: 'admin',
      minimumLevel: 'high',
    });
    const rp = await relyingParty(t.base, closed);
    const me = await smsSignedIn();
    const start = await authorizationRequest(rp, 'http://127.0.0.1:9/r-serv-/callback', 'openid');
    const { url } = await new Browser(me.portal.cookies).follow(start.url.href, t.base);
    expect(url.pathname).toBe('/oauth-error');
    expect(url.searchParams.get('error')).toBe('access_denied');
  });

  it('holds the account area to its minimum level, leaving open what raises it', async () => {
    const me = await smsSignedIn();
    const app = await enrolApp(me);
    await signIn(t, admin);
    const set = await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/assurance',
      payload: { accountMinimumLevel: 'substantial' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ accountMinimumLevel: 'substantial' });
    try {
      const refused = await me.portal.get('/api/me/sessions');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'assurance_level_required',
        data: { level: 'substantial' },
      });
      expect((await me.portal.get('/api/me')).statusCode).toBe(200);
      expect((await me.portal.get('/api/me/totp')).statusCode).toBe(200);
      expect((await me.portal.get('/api/me/assurance')).json()).toMatchObject({
        level: 'low',
        accountMinimum: 'substantial',
      });
      const raised = await me.portal.post('/api/me/assurance/totp', {
        code: codeAt(app, t.clock.now()),
      });
      expect(raised.json()).toEqual({ level: 'substantial' });
      expect((await me.portal.get('/api/me/sessions')).statusCode).toBe(200);
    } finally {
      await admin.request({
        method: 'PUT',
        url: '/api/admin/settings/assurance',
        payload: { accountMinimumLevel: null },
      });
    }
  });

  it('lets the admin change the mapping (an unknown method refused) and a platform’s minimum (an unknown level refused)', async () => {
    await signIn(t, admin);
    const current = await admin.get('/api/admin/settings/assurance');
    expect(current.json()).toMatchObject({ accountMinimumLevel: null });
    const typo = await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/assurance',
      payload: { mapping: { low: [['pwd', 'otpp']], substantial: [], high: [] } },
    });
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toMatchObject({
      code: 'assurance_mapping_invalid',
      data: { method: 'otpp' },
    });
    expect(typo.json<{ message: string }>().message).toContain('otpp');

    // A stricter mapping: a code by SMS is no longer enough for low.
    const me = await smsSignedIn();
    const strict = { low: [['pwd', 'otp']], substantial: [['pwd', 'totp']], high: [] };
    const saved = await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/assurance',
      payload: { mapping: strict },
    });
    expect(saved.statusCode).toBe(200);
    expect((await me.portal.get('/api/me/assurance')).json()).toMatchObject({
      level: 'one_factor',
    });
    await admin.request({
      method: 'PUT',
      url: '/api/admin/settings/assurance',
      payload: { mapping: null },
    });
    expect((await me.portal.get('/api/me/assurance')).json()).toMatchObject({ level: 'low' });

    expect(sensitive.minimumLevel).toBe('substantial');
    expect(plain.minimumLevel).toBeNull();
    const unknown = await admin.request({
      method: 'PATCH',
      url: `/api/admin/platforms/${plain.id}`,
      payload: { minimumLevel: 'medium' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_error' });
    const high = await admin.request({
      method: 'PATCH',
      url: `/api/admin/platforms/${plain.id}`,
      payload: { minimumLevel: 'high' },
    });
    expect(high.json()).toMatchObject({ minimumLevel: 'high' });
    const none = await admin.request({
      method: 'PATCH',
      url: `/api/admin/platforms/${plain.id}`,
      payload: { minimumLevel: null },
    });
    expect(none.json()).toMatchObject({ minimumLevel: null });
  });
});
