import crypto from 'node:crypto';
import http from 'node:http';
import * as client from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CreatedPlatform } from '@hygie/domain';
import { DIALECTS, messagesTo, signIn, TestClient } from '../../test/helpers.js';
import type { ListeningApp } from './test-support.js';
import {
  authorizationRequest,
  authorizeTo,
  type Browser,
  listeningTestApp,
  registerPlatform,
  relyingParty,
  signedInBrowser,
} from './test-support.js';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** What a platform's back-channel logout endpoint received. */
interface Notice {
  path: string;
  contentType: string | undefined;
  logoutToken: string;
}

/** The platforms' back-channel endpoints: every POST is kept; `refuse` answers 500 that many times. */
class PlatformEndpoints {
  readonly notices: Notice[] = [];
  refuse = 0;
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (this.refuse > 0) {
        this.refuse -= 1;
        res.writeHead(500).end();
        return;
      }
      this.notices.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        logoutToken: new URLSearchParams(body).get('logout_token') ?? '',
      });
      res.writeHead(200).end();
    });
  });
  base = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (typeof address !== 'object' || !address) throw new Error('not listening');
    this.base = `http://127.0.0.1:${address.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const jwtHeader = z.object({ kid: z.string(), alg: z.string(), typ: z.string().optional() });
const jwkSet = z.object({
  keys: z.array(z.looseObject({ kid: z.string(), kty: z.string(), n: z.string(), e: z.string() })),
});
const jsonObject = z.record(z.string(), z.unknown());

function decodedPart(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString());
}

/** A logout token's claims once its RS256 signature checks against the provider's JWKS. */
async function verifiedClaims(base: string, token: string): Promise<Record<string, unknown>> {
  const [header = '', payload = '', signature = ''] = token.split('.');
  const { kid, alg, typ } = jwtHeader.parse(decodedPart(header));
  expect(alg).toBe('RS256');
  // Back-channel logout §2.4: typed as a logout token, never usable as an ID token.
  expect(typ).toBe('logout+jwt');
  const { keys } = jwkSet.parse(await (await fetch(`${base}/oidc/jwks`)).json());
  const jwk = keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`no key ${kid}`);
  const key = crypto.createPublicKey({ key: jwk, format: 'jwk' });
  const valid = crypto.verify(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature, 'base64url'),
  );
  expect(valid).toBe(true);
  return jsonObject.parse(decodedPart(payload));
}

let users = 0;
function newUser() {
  users += 1;
  return {
    email: `bcl${users}@hygie.test`,
    password: 'User-Passw0rd!',
    phone: `+336123450${String(users).padStart(2, '0')}`,
  };
}

describe.each(DIALECTS)('back-channel logout on %s', (dialect) => {
  let t: ListeningApp;
  const endpoints = new PlatformEndpoints();
  const platforms: Record<string, { platform: CreatedPlatform; rp: client.Configuration }> = {};

  beforeAll(async () => {
    await endpoints.start();
    t = await listeningTestApp(dialect);
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    for (const [name, withNotices] of [
      ['Agenda', true],
      ['Labo', true],
      ['Annuaire', false],
    ] as const) {
      const slug = name.toLowerCase();
      const platform = await registerPlatform(admin, {
        name,
        ...(withNotices ? { backchannelLogoutUri: `${endpoints.base}/${slug}/logout` } : {}),
      });
      platforms[name] = { platform, rp: await relyingParty(t.base, platform) };
    }
  });
  afterAll(async () => {
    await t.close();
    await endpoints.stop();
  });
  beforeEach(() => {
    endpoints.notices.length = 0;
    endpoints.refuse = 0;
  });

  function use(name: string) {
    const entry = platforms[name];
    if (!entry) throw new Error(name);
    return entry;
  }

  /** The user signs in to a platform; the ID token's claims (with its `sid`). */
  async function signInTo(browser: Browser, name: string) {
    const { rp, platform } = use(name);
    const callback = platform.redirectUris[0] ?? '';
    const start = await authorizationRequest(rp, callback, 'openid');
    const url = await authorizeTo(browser, t.base, start);
    const tokens = await client.authorizationCodeGrant(rp, url, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return { tokens, claims: tokens.claims() ?? { sid: undefined } };
  }

  /** Delivers what the outbox holds for the platforms. */
  async function deliver(): Promise<void> {
    await t.dispatcher.runOnce();
  }

  it('is advertised, with the session id in logout tokens', () => {
    const metadata = use('Agenda').rp.serverMetadata();
    expect(metadata.backchannel_logout_supported).toBe(true);
    expect(metadata.backchannel_logout_session_supported).toBe(true);
    // Front-channel logout stays off: nothing in a hidden frame.
    expect(metadata.frontchannel_logout_supported).toBeUndefined();
  });

  it('signing out of the portal tells each platform the user signed in to, with a signed logout token', async () => {
    const { browser, userId } = await signedInBrowser(t, newUser());
    const agenda = await signInTo(browser, 'Agenda');
    const labo = await signInTo(browser, 'Labo');
    await signInTo(browser, 'Annuaire');
    expect(agenda.claims.sid).toEqual(expect.any(String));

    expect((await browser.get(`${t.base}/api/logout`)).status).toBe(303);
    expect(endpoints.notices).toEqual([]); // queued with the sign-out, sent by the outbox
    await deliver();

    const byPath = new Map(endpoints.notices.map((n) => [n.path, n]));
    expect([...byPath.keys()].sort()).toEqual(['/agenda/logout', '/labo/logout']);
    for (const [name, signedIn] of [
      ['Agenda', agenda],
      ['Labo', labo],
    ] as const) {
      const notice = byPath.get(`/${name.toLowerCase()}/logout`);
      expect(notice?.contentType).toBe('application/x-www-form-urlencoded');
      const claims = await verifiedClaims(t.base, notice?.logoutToken ?? '');
      expect(claims).toMatchObject({
        iss: `${t.base}/oidc`,
        aud: use(name).platform.clientId,
        sub: userId,
        sid: signedIn.claims.sid,
        events: { [EVENT]: {} },
      });
      expect(claims.jti).toEqual(expect.any(String));
      expect(claims.iat).toEqual(expect.any(Number));
      // A logout token is never an ID token: no nonce.
      expect(claims).not.toHaveProperty('nonce');
    }
    // Told once: a second delivery round sends nothing more.
    endpoints.notices.length = 0;
    await deliver();
    expect(endpoints.notices).toEqual([]);
  });

  it('a platform that does not answer is told again later, until it takes the notice', async () => {
    const { browser } = await signedInBrowser(t, newUser());
    await signInTo(browser, 'Agenda');
    await browser.get(`${t.base}/api/logout`);
    endpoints.refuse = 1;
    await deliver();
    expect(endpoints.notices).toEqual([]);
    const row = await t.ctx.db
      .selectFrom('outbox')
      .select(['status', 'attempts', 'last_error'])
      .where('channel', '=', 'logout')
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toContain('500');
    t.clock.advance(10_000);
    await deliver();
    expect(endpoints.notices.map((n) => n.path)).toEqual(['/agenda/logout']);
  });

  it('a password reset tells the platforms: whoever held the account is signed out of them too', async () => {
    const user = newUser();
    const { browser, userId } = await signedInBrowser(t, user);
    const { claims } = await signInTo(browser, 'Labo');
    const owner = new TestClient(t.app);
    await owner.post('/api/password/forgot', { username: user.email, channel: 'email' });
    const code = (await messagesTo(t, user.email)).find((m) => m.template === 'password_reset_code')
      ?.params.code;
    const verified = await owner.post('/api/password/forgot/verify', {
      username: user.email,
      channel: 'email',
      code,
    });
    const { resetToken } = verified.json<{ resetToken: string }>();
    const reset = await owner.post('/api/password/reset', {
      resetToken,
      password: 'Another-Passw0rd!',
      passwordConfirmation: 'Another-Passw0rd!',
    });
    expect(reset.statusCode).toBe(200);
    await deliver();
    expect(endpoints.notices.map((n) => n.path)).toEqual(['/labo/logout']);
    expect(await verifiedClaims(t.base, endpoints.notices[0]?.logoutToken ?? '')).toMatchObject({
      sub: userId,
      sid: claims.sid,
    });
  });

  it('locking the account from the "not you?" link tells the platforms', async () => {
    const user = newUser();
    const { browser, userId } = await signedInBrowser(t, user);
    await signInTo(browser, 'Agenda');
    const lockUrl = (await messagesTo(t, user.email)).find((m) => m.params.lockUrl)?.params.lockUrl;
    const locked = await new TestClient(t.app).post('/api/lock-account', {
      email: user.email,
      code: new URL(lockUrl ?? '').searchParams.get('code'),
    });
    expect(locked.statusCode).toBe(200);
    await deliver();
    expect(endpoints.notices.map((n) => n.path)).toEqual(['/agenda/logout']);
    expect(await verifiedClaims(t.base, endpoints.notices[0]?.logoutToken ?? '')).toMatchObject({
      sub: userId,
    });
  });

  it('RP-initiated logout tells the other platforms of the session at once', async () => {
    const { browser } = await signedInBrowser(t, newUser());
    const agenda = await signInTo(browser, 'Agenda');
    const labo = await signInTo(browser, 'Labo');
    const { rp } = use('Agenda');
    const end = client.buildEndSessionUrl(rp, { id_token_hint: agenda.tokens.id_token ?? '' });
    const html = await (await browser.get(end.href)).text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirmed = await browser.postForm(new URL(action, t.base).href, {
      xsrf,
      logout: 'yes',
    });
    expect(confirmed.status).toBe(303);
    await deliver();
    const paths = endpoints.notices.map((n) => n.path).sort();
    expect(paths).toEqual(['/agenda/logout', '/labo/logout']);
    const sids = await Promise.all(
      endpoints.notices.map(async (n) => (await verifiedClaims(t.base, n.logoutToken)).sid),
    );
    expect(sids.sort()).toEqual([agenda.claims.sid, labo.claims.sid].sort());
  });

  it('a platform registered with a back-channel URI shows it to admins; a plain-http one elsewhere than loopback is refused', async () => {
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    const list = await admin.get('/api/admin/platforms');
    const agenda = list
      .json<{ platforms: { name: string; backchannelLogoutUri: string | null }[] }>()
      .platforms.find((p) => p.name === 'Agenda');
    expect(agenda?.backchannelLogoutUri).toBe(`${endpoints.base}/agenda/logout`);
    const refused = await admin.post('/api/admin/platforms', {
      name: 'Bad',
      url: 'https://bad.example',
      redirectUris: ['https://bad.example/cb'],
      backchannelLogoutUri: 'http://bad.example/logout',
    });
    expect(refused.statusCode).toBe(400);
  });
});
