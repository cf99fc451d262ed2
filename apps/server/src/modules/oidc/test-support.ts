// Test helpers for the provider: the app on a real port, a browser-like cookie jar over fetch, and
// a relying party built with openid-client (only tests import this file).
import net from 'node:net';
import * as client from 'openid-client';
import type { CreatedPlatform, PlatformCreateInput } from '@hygie/domain';
import type { Dialect } from '../../db/connection.js';
import type { TestApp, TestUser } from '../../test/helpers.js';
import { createTestApp, createUser, signIn, TestClient } from '../../test/helpers.js';

/** A port nobody listens on now (the issuer must be known before the app is built). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port ?? 0;
}

/**
 * `count` distinct free ports: all held open at once, then released together (asking one at a
 * time may hand the same port out twice, the first having been released already).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  });
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
  return ports;
}

export interface ListeningApp extends TestApp {
  /** The public URL (PUBLIC_URL), where the app listens. */
  base: string;
}

/** The whole app listening on 127.0.0.1, with PUBLIC_URL (hence the issuer) on that address. */
export async function listeningTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
): Promise<ListeningApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp(dialect, { env: { PUBLIC_URL: base, ...env } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, base };
}

/** A browser over fetch: keeps cookies (names only, paths ignored), never follows redirects. */
export class Browser {
  readonly cookies: Map<string, string>;
  constructor(cookies: Map<string, string> = new Map()) {
    this.cookies = new Map(cookies);
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    headers.set('accept', 'text/html');
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [key = '', val = ''] = a.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get(url: string): Promise<Response> {
    return this.request(url);
  }

  postForm(url: string, form: Record<string, string>): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  /**
   * Follows redirects while they stay on `origin`; returns the first address outside it (a
   * platform's callback) or the last answer on it (a page, such as the sign-in or an error).
   */
  async follow(start: string, origin: string): Promise<{ url: URL; response: Response | null }> {
    let url = new URL(start);
    for (let hop = 0; hop < 12; hop++) {
      if (url.origin !== origin) return { url, response: null };
      const response = await this.get(url.href);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url, response };
      await response.body?.cancel();
      url = new URL(location, url);
    }
    throw new Error(`too many redirects from ${start}`);
  }
}

/** Registers a platform through the admin API (as the bootstrap admin). */
export async function registerPlatform(
  admin: TestClient,
  input: Partial<PlatformCreateInput> & Pick<PlatformCreateInput, 'name'>,
): Promise<CreatedPlatform> {
  const slug = input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const res = await admin.post('/api/admin/platforms', {
    url: `https://${slug}.example`,
    redirectUris: [`http://127.0.0.1:9/${slug}/callback`],
    postLogoutRedirectUris: [`http://127.0.0.1:9/${slug}/signed-out`],
    ...input,
  });
  if (res.statusCode !== 201) throw new Error(`platform not created: ${res.body}`);
  return res.json<CreatedPlatform>();
}

/** A relying party for a registered platform, configured by discovery (openid-client). */
export async function relyingParty(
  base: string,
  platform: Pick<CreatedPlatform, 'clientId' | 'clientSecret'>,
): Promise<client.Configuration> {
  return client.discovery(
    new URL(`${base}/oidc`),
    platform.clientId,
    undefined,
    platform.clientSecret ? client.ClientSecretBasic(platform.clientSecret) : client.None(),
    { execute: [client.allowInsecureRequests] },
  );
}

export interface AuthorizationStart {
  url: URL;
  verifier: string;
  state: string;
}

/** An authorization request with PKCE S256, as a platform builds it. */
export async function authorizationRequest(
  config: client.Configuration,
  redirectUri: string,
  scope = 'openid email profile',
  extra: Record<string, string> = {},
): Promise<AuthorizationStart> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url, verifier, state };
}

/** A user signed in to the portal (password, e-mailed second factor, terms): their browser. */
export async function signedInBrowser(
  t: TestApp,
  user: TestUser,
): Promise<{ browser: Browser; client: TestClient; userId: string }> {
  const userId = await createUser(t, user);
  const session = new TestClient(t.app);
  const res = await signIn(t, session, user.email, user.password);
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return { browser: new Browser(session.cookies), client: session, userId };
}

/** Walks an authorization through the portal; the platform's callback URL, or throws. */
export async function authorizeTo(
  browser: Browser,
  base: string,
  start: AuthorizationStart,
): Promise<URL> {
  const { url, response } = await browser.follow(start.url.href, base);
  if (response) throw new Error(`stopped on the portal at ${url.href} (${response.status})`);
  return url;
}
