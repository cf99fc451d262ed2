import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { CreatedPlatform, MyActivityPage, MyConsent, MySession } from '@hygie/domain';
import { createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import type { ListeningApp } from '../oidc/test-support.js';
import {
  authorizationRequest,
  Browser,
  listeningTestApp,
  registerPlatform,
  relyingParty,
} from '../oidc/test-support.js';

// The account's self-service (#15): my sessions, my activity, the platforms I let in — each only
// the signed-in person's own, audited, and taking effect at once.

const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const ANDROID_FIREFOX = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';

/** A client whose every request names a browser (its user agent). */
class AgentClient extends TestClient {
  constructor(
    app: ListeningApp['app'],
    private readonly agent: string,
  ) {
    super(app);
  }

  override request(options: InjectOptions & { xsrf?: boolean }) {
    return super.request({ ...options, headers: { 'user-agent': this.agent, ...options.headers } });
  }
}

describe.each(DIALECTS)('self-service on %s', (dialect) => {
  let t: ListeningApp;
  let admin: TestClient;
  let adminId = '';
  let seq = 0;

  beforeAll(async () => {
    t = await listeningTestApp(dialect, { OIDC_REFRESH_REUSE_GRACE_SECONDS: '0' });
    admin = new TestClient(t.app);
    expect((await signIn(t, admin)).statusCode).toBe(200);
    adminId = (await admin.get('/api/me')).json<{ id: string }>().id;
  });

  /** Each sign-in moves the clock 13 minutes: earlier sessions make a request to stay alive. */
  async function touch(clients: TestClient[]) {
    for (const c of clients) expect((await c.get('/api/me')).statusCode).toBe(200);
  }
  afterAll(() => t.close());

  /** A new person; `browsers` signed-in clients of theirs, one per user agent given. */
  async function person(...agents: string[]) {
    seq += 1;
    const email = `self-${seq}@hygie.test`;
    const password = `Self-Passw0rd-${seq}`;
    const id = await createUser(t, { email, password, phone: `+336580000${10 + seq}` });
    const clients: TestClient[] = [];
    for (const agent of agents) {
      const c = new AgentClient(t.app, agent);
      expect((await signIn(t, c, email, password)).statusCode).toBe(200);
      await touch(clients);
      clients.push(c);
    }
    return { id, email, password, clients };
  }

  const sessionsOf = async (c: TestClient) => {
    const res = await c.get('/api/me/sessions');
    expect(res.statusCode).toBe(200);
    return res.json<MySession[]>();
  };

  const eventsAbout = (userId: string, action: string) =>
    t.ctx.db
      .selectFrom('audit_events')
      .select(['actor_id', 'ip', 'details'])
      .where('target_id', '=', userId)
      .where('action', '=', action)
      .execute();

  it('lists my live sessions: device in words, address, dates, methods, the current one', async () => {
    const me = await person(WINDOWS_CHROME, ANDROID_FIREFOX);
    const [first, second] = me.clients;
    if (!first || !second) throw new Error('two clients');
    const sessions = await sessionsOf(first);
    expect(sessions).toHaveLength(2);
    expect(sessions.map((s) => s.current)).toEqual([true, false]);
    const current = sessions.find((s) => s.current);
    const other = sessions.find((s) => !s.current);
    expect(current).toMatchObject({
      device: { browser: 'Chrome', os: 'Windows' },
      ip: '127.0.0.1',
      complete: true,
      methods: ['pwd', 'otp'],
    });
    expect(other).toMatchObject({ device: { browser: 'Firefox', os: 'Android' }, current: false });
    expect(Date.parse(current?.createdAt ?? '')).not.toBeNaN();
    expect(Date.parse(current?.lastSeenAt ?? '')).not.toBeNaN();
    // No token nor its hash ever leaves the server.
    expect(JSON.stringify(sessions)).not.toMatch(/token|hash/i);
    // The second browser sees the same two, itself current.
    const seen = await sessionsOf(second);
    expect(seen.find((s) => s.current)?.id).toBe(other?.id);
  });

  it('ends one of my sessions at once: its next request is 401; audited', async () => {
    const me = await person(WINDOWS_CHROME, ANDROID_FIREFOX);
    const [first, second] = me.clients;
    if (!first || !second) throw new Error('two clients');
    const other = (await sessionsOf(first)).find((s) => !s.current);
    const res = await first.request({ method: 'DELETE', url: `/api/me/sessions/${other?.id}` });
    expect(res.json()).toEqual({ ok: true });
    expect((await second.get('/api/me')).statusCode).toBe(401);
    expect((await second.get('/api/me/sessions')).statusCode).toBe(401);
    expect((await first.get('/api/me')).statusCode).toBe(200);
    expect((await sessionsOf(first)).map((s) => s.current)).toEqual([true]);
    const events = await eventsAbout(me.id, 'sessions_ended');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: me.id, ip: '127.0.0.1' });
    expect(JSON.parse(events[0]?.details ?? '{}')).toEqual({ scope: 'one', current: false });
  });

  it('ends the current session too when asked: that is a sign-out', async () => {
    const me = await person(WINDOWS_CHROME);
    const [mine] = me.clients;
    if (!mine) throw new Error('client');
    const [current] = await sessionsOf(mine);
    const res = await mine.request({ method: 'DELETE', url: `/api/me/sessions/${current?.id}` });
    expect(res.json()).toEqual({ ok: true });
    expect((await mine.get('/api/me')).statusCode).toBe(401);
    const [event] = await eventsAbout(me.id, 'sessions_ended');
    expect(JSON.parse(event?.details ?? '{}')).toEqual({ scope: 'one', current: true });
  });

  it("answers 404 for another person's session or an unknown id, and ends nothing", async () => {
    const me = await person(WINDOWS_CHROME);
    const them = await person(ANDROID_FIREFOX);
    const [mine] = me.clients;
    const [theirs] = them.clients;
    if (!mine || !theirs) throw new Error('clients');
    const [theirSession] = await sessionsOf(theirs);
    for (const id of [theirSession?.id, 'no-such-session']) {
      const res = await mine.request({ method: 'DELETE', url: `/api/me/sessions/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    expect((await theirs.get('/api/me')).statusCode).toBe(200);
    expect(await eventsAbout(me.id, 'sessions_ended')).toHaveLength(0);
    expect(await eventsAbout(them.id, 'sessions_ended')).toHaveLength(0);
  });

  it('ends a session once when two requests race to end it', async () => {
    const me = await person(WINDOWS_CHROME, ANDROID_FIREFOX, ANDROID_FIREFOX);
    const [first, second] = me.clients;
    if (!first || !second) throw new Error('clients');
    const target = (await sessionsOf(second)).find((s) => s.current);
    const answers = await Promise.all(
      [first, first].map((c) =>
        c.request({ method: 'DELETE', url: `/api/me/sessions/${target?.id}` }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
    expect(await eventsAbout(me.id, 'sessions_ended')).toHaveLength(1);
  });

  it('records nothing when there is no other session to end', async () => {
    const me = await person(WINDOWS_CHROME);
    const [mine] = me.clients;
    if (!mine) throw new Error('client');
    expect((await mine.post('/api/me/sessions/end-others')).json()).toEqual({ ended: 0 });
    expect((await mine.get('/api/me')).statusCode).toBe(200);
    expect(await eventsAbout(me.id, 'sessions_ended')).toHaveLength(0);
  });

  it('signs out everywhere else: every other session ends, this one stays', async () => {
    const me = await person(WINDOWS_CHROME, ANDROID_FIREFOX, ANDROID_FIREFOX);
    const them = await person(WINDOWS_CHROME);
    const [first, second, third] = me.clients;
    const [theirs] = them.clients;
    if (!first || !second || !third || !theirs) throw new Error('clients');
    await touch(me.clients);
    const res = await first.post('/api/me/sessions/end-others');
    expect(res.json()).toEqual({ ended: 2 });
    expect((await second.get('/api/me')).statusCode).toBe(401);
    expect((await third.get('/api/me')).statusCode).toBe(401);
    expect((await first.get('/api/me')).statusCode).toBe(200);
    expect((await theirs.get('/api/me')).statusCode).toBe(200);
    expect((await sessionsOf(first)).map((s) => s.current)).toEqual([true]);
    const [event] = await eventsAbout(me.id, 'sessions_ended');
    expect(JSON.parse(event?.details ?? '{}')).toEqual({ scope: 'others', count: 2 });
  });

  it('refuses every self-service route without a session (401)', async () => {
    const anonymous = new TestClient(t.app);
    const calls = [
      anonymous.get('/api/me/sessions'),
      anonymous.request({ method: 'DELETE', url: '/api/me/sessions/x' }),
      anonymous.post('/api/me/sessions/end-others'),
      anonymous.get('/api/me/activity'),
      anonymous.get('/api/me/consents'),
      anonymous.request({ method: 'DELETE', url: '/api/me/consents/x' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'not_logged_in' });
    }
  });

  /** Every page of my activity, following the cursor. */
  async function allActivity(c: TestClient, limit: number) {
    const items: MyActivityPage['items'] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const query: string = cursor === null ? '' : `&before=${cursor}`;
      const res = await c.get(`/api/me/activity?limit=${limit}${query}`);
      expect(res.statusCode).toBe(200);
      const body = res.json<MyActivityPage>();
      expect(body.items.length).toBeLessThanOrEqual(limit);
      items.push(...body.items);
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    return items;
  }

  it("shows my security events newest first, never another person's, every event once across pages", async () => {
    const me = await person(ANDROID_FIREFOX, WINDOWS_CHROME);
    const them = await person(ANDROID_FIREFOX, ANDROID_FIREFOX);
    const [, mine] = me.clients;
    const [, theirs] = them.clients;
    if (!mine || !theirs) throw new Error('clients');
    await touch([mine]);
    // A failed sign-in on my account (someone else's browser), and activity of theirs.
    t.clock.advance(1000);
    expect((await new TestClient(t.app).login(me.email, 'Wrong-Passw0rd-1')).statusCode).toBe(401);
    await new TestClient(t.app).login(them.email, 'Wrong-Passw0rd-1');
    expect((await theirs.post('/api/me/sessions/end-others')).json()).toEqual({ ended: 1 });
    expect((await mine.post('/api/me/sessions/end-others')).json()).toEqual({ ended: 1 });

    const whole = await allActivity(mine, 100);
    const paged = await allActivity(mine, 2);
    expect(paged.map((e) => e.id)).toEqual(whole.map((e) => e.id));
    expect(new Set(paged.map((e) => e.id)).size).toBe(paged.length);
    const stored = await t.ctx.db
      .selectFrom('audit_events')
      .select(['id', 'target_id'])
      .where(
        'id',
        'in',
        whole.map((e) => e.id),
      )
      .execute();
    expect(stored).toHaveLength(whole.length);
    expect(stored.every((e) => e.target_id === me.id)).toBe(true);
    const times = whole.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const actions = whole.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['login', 'second_factor_passed', 'login_failed', 'sessions_ended']),
    );
    // Noise and internals stay out: no code sent, no actor or request id.
    expect(actions).not.toContain('second_factor_sent');
    expect(whole.filter((e) => e.action === 'login')).toMatchObject([
      { by: 'me', ip: '127.0.0.1', device: { browser: 'Chrome', os: 'Windows' } },
      { by: 'me', ip: '127.0.0.1', device: { browser: 'Firefox', os: 'Android' } },
    ]);
    expect(whole.find((e) => e.action === 'login_failed')).toMatchObject({
      by: 'nobody',
      details: { reason: 'bad_credentials' },
    });
    expect(JSON.stringify(whole)).not.toMatch(/actorId|requestId|targetId/);
    expect(JSON.stringify(whole)).not.toContain(them.id);
  });

  it("names an administrator's act on my account without the administrator", async () => {
    const me = await person(WINDOWS_CHROME);
    const [mine] = me.clients;
    if (!mine) throw new Error('client');
    // Recorded as the admin area records it (the act itself needs a fresh second factor).
    await t.ctx.db
      .insertInto('audit_events')
      .values({
        id: `admin-act-${seq}`,
        at: t.clock.now() + 1,
        actor_id: adminId,
        action: 'account_unlocked',
        target_id: me.id,
        ip: '10.9.8.7',
        details: null,
        request_id: 'r',
        user_agent: WINDOWS_CHROME,
      })
      .execute();
    const [latest] = (await mine.get('/api/me/activity')).json<MyActivityPage>().items;
    expect(latest).toEqual({
      id: `admin-act-${seq}`,
      at: expect.any(String),
      action: 'account_unlocked',
      by: 'administrator',
      ip: null,
      device: null,
      details: {},
    });
    expect(JSON.stringify(latest)).not.toContain(adminId);
  });

  it('refuses a malformed cursor or limit (400)', async () => {
    const [mine] = (await person(WINDOWS_CHROME)).clients;
    if (!mine) throw new Error('client');
    for (const q of ['before=not-a-cursor', 'limit=0', 'limit=1000']) {
      const res = await mine.get(`/api/me/activity?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });

  describe('platforms I let in', () => {
    let partner: CreatedPlatform;
    let other: CreatedPlatform;
    let rpPartner: client.Configuration;
    let rpOther: client.Configuration;

    beforeAll(async () => {
      expect((await signIn(t, admin)).statusCode).toBe(200);
      partner = await registerPlatform(admin, {
        name: 'Partner Care',
        firstParty: false,
        backchannelLogoutUri: 'http://127.0.0.1:9/partner/logout',
      });
      other = await registerPlatform(admin, { name: 'Other Care', firstParty: false });
      rpPartner = await relyingParty(t.base, partner);
      rpOther = await relyingParty(t.base, other);
    });

    /** Through the consent page if the platform asks ("allow"), to tokens. */
    async function tokensFor(
      browser: Browser,
      rp: client.Configuration,
      platform: CreatedPlatform,
      expectConsentPage: boolean,
    ) {
      const callback = platform.redirectUris[0] ?? '';
      const start = await authorizationRequest(rp, callback, 'openid email');
      const page = await browser.follow(start.url.href, t.base);
      let end = page.url;
      if (page.response) {
        const html = await page.response.text();
        expect(html).toContain('name="decision"');
        const allowed = await browser.postForm(
          new URL(/action="([^"]+)"/.exec(html)?.[1] ?? '', t.base).href,
          { token: /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '', decision: 'allow' },
        );
        expect(allowed.status).toBe(303);
        end = (
          await browser.follow(new URL(allowed.headers.get('location') ?? '', t.base).href, t.base)
        ).url;
      }
      expect(page.response !== null, 'asked for consent').toBe(expectConsentPage);
      return client.authorizationCodeGrant(rp, end, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      });
    }

    it('lists my consents and removes one: its refresh token dies, consent is asked again', async () => {
      const me = await person(WINDOWS_CHROME);
      const them = await person(ANDROID_FIREFOX);
      const [mine] = me.clients;
      const [theirs] = them.clients;
      if (!mine || !theirs) throw new Error('clients');
      const browser = new Browser(mine.cookies);
      const partnerTokens = await tokensFor(browser, rpPartner, partner, true);
      const otherTokens = await tokensFor(browser, rpOther, other, true);
      expect(partnerTokens.refresh_token).toBeTruthy();

      const consents = (await mine.get('/api/me/consents')).json<MyConsent[]>();
      expect(consents.map((c) => c.platform).sort()).toEqual(['Other Care', 'Partner Care']);
      expect(consents.find((c) => c.clientId === partner.clientId)).toMatchObject({
        scopes: ['openid', 'email'],
        grantedAt: expect.any(String),
      });
      expect((await theirs.get('/api/me/consents')).json()).toEqual([]);

      // Another person cannot remove my platform's access.
      const foreign = await theirs.request({
        method: 'DELETE',
        url: `/api/me/consents/${partner.clientId}`,
      });
      expect(foreign.statusCode).toBe(404);
      const unknown = await mine.request({ method: 'DELETE', url: '/api/me/consents/nobody' });
      expect(unknown.statusCode).toBe(404);

      const removed = await mine.request({
        method: 'DELETE',
        url: `/api/me/consents/${partner.clientId}`,
      });
      expect(removed.json()).toEqual({ ok: true });
      // The refresh token issued before no longer works; the other platform's still does.
      await expect(
        client.refreshTokenGrant(rpPartner, partnerTokens.refresh_token ?? ''),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
      const refreshed = await client.refreshTokenGrant(rpOther, otherTokens.refresh_token ?? '');
      expect(refreshed.access_token).toBeTruthy();
      const userinfo = await fetch(`${t.base}/oidc/me`, {
        headers: { authorization: `Bearer ${partnerTokens.access_token}` },
      });
      expect(userinfo.status).toBe(401);
      expect(
        (await mine.get('/api/me/consents')).json<MyConsent[]>().map((c) => c.platform),
      ).toEqual(['Other Care']);
      // Removing it again: nothing left to remove.
      const again = await mine.request({
        method: 'DELETE',
        url: `/api/me/consents/${partner.clientId}`,
      });
      expect(again.statusCode).toBe(404);

      // Audited once, by me; the platform told by back-channel logout.
      const events = await eventsAbout(me.id, 'oidc_grant_revoked');
      expect(events).toHaveLength(1);
      expect(events[0]?.actor_id).toBe(me.id);
      expect(JSON.parse(events[0]?.details ?? '{}')).toEqual({
        clientId: partner.clientId,
        reason: 'removed_by_user',
      });
      expect(await eventsAbout(me.id, 'backchannel_logout_queued')).toHaveLength(1);
      const activity = (await mine.get('/api/me/activity')).json<MyActivityPage>().items;
      expect(activity.find((e) => e.action === 'oidc_grant_revoked')).toMatchObject({
        by: 'me',
        details: { platform: 'Partner Care', reason: 'removed_by_user' },
      });

      // The platform must ask for consent again; the other one does not.
      await tokensFor(browser, rpPartner, partner, true);
      await tokensFor(browser, rpOther, other, false);
    });

    it('removes access once when two requests race: one 200, one 404, one event, one notice', async () => {
      const me = await person(WINDOWS_CHROME);
      const [mine] = me.clients;
      if (!mine) throw new Error('client');
      const browser = new Browser(mine.cookies);
      const tokens = await tokensFor(browser, rpPartner, partner, true);
      const answers = await Promise.all(
        [1, 2].map(() =>
          mine.request({ method: 'DELETE', url: `/api/me/consents/${partner.clientId}` }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
      expect(await eventsAbout(me.id, 'oidc_grant_revoked')).toHaveLength(1);
      expect(await eventsAbout(me.id, 'backchannel_logout_queued')).toHaveLength(1);
      await expect(
        client.refreshTokenGrant(rpPartner, tokens.refresh_token ?? ''),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
    });
  });
});
