// Mock Pro Santé Connect and FranceConnect for the tests: real OpenID providers (oidc-provider)
// on a random port, sending the claims and `acr` the real ones send. Only tests import this file.
import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import Provider from 'oidc-provider';
import type { Account, FindAccount } from 'oidc-provider';
import type { MockProviderKind } from '../../../../../e2e/fixtures/mock-identities.mjs';
import {
  confirmedLogoutPage,
  LEVELS,
  pscClaims,
  SCOPES,
} from '../../../../../e2e/fixtures/mock-identities.mjs';
import type { TestApp, TestClient } from '../../test/helpers.js';
import { createUser, portOf } from '../../test/helpers.js';
import { Browser } from '../oidc/test-support.js';
import { linkIdentity } from './service.js';

export const CLIENT_SECRET = 'a-client-secret-of-the-portal-at-the-provider';

/** The portal's public URL in the tests that inject requests (no listening port). */
export const PORTAL = 'http://localhost:3000';

/** The environment that enables a mock as the provider `prefix` (PSC, FRANCECONNECT). */
export function providerEnv(prefix: string, mock: { issuer: string; clientId: string }) {
  return {
    [`${prefix}_ISSUER`]: mock.issuer,
    [`${prefix}_CLIENT_ID`]: mock.clientId,
    [`${prefix}_CLIENT_SECRET`]: CLIENT_SECRET,
  };
}

// The identities and scopes are the browser suite's too: written once, in e2e/fixtures.
export { franceConnectClaims, pscClaims } from '../../../../../e2e/fixtures/mock-identities.mjs';

export interface MockProvider {
  issuer: string;
  clientId: string;
  /** Who signs in at the provider next, and at which `acr`; `cancel` refuses like a user would. */
  nextLogin: { subject: string; acr: string } | 'cancel';
  /** Each subject's claims (what the provider's userinfo and ID token carry). */
  accounts: Map<string, Record<string, unknown>>;
  /** Replaces the token endpoint's answer (a forged ID token, a delay); null: the real one. */
  tokenOverride: ((params: URLSearchParams) => Promise<{ status: number; body: unknown }>) | null;
  /** The last authorization request's parameters (what the portal sent). */
  lastAuthorization: URLSearchParams | null;
  /** Down: every connection is closed without an answer (a provider out of service). */
  down: boolean;
  /** How many requests reached the provider (down or not). */
  requests: number;
  /** Signs an ID token with the provider's own key (for forged answers). */
  sign(claims: Record<string, unknown>): string;
  close(): Promise<void>;
}

/**
 * Starts a mock provider of that kind, knowing the portal's client and its redirect URI (its
 * post-logout redirect URI is the portal's `logged-out` next to it). `endSession: false` makes a
 * provider without RP-initiated logout (no end_session_endpoint in its discovery).
 */
export async function startMockProvider(
  kind: MockProviderKind,
  redirectUri: string,
  { endSession = true }: { endSession?: boolean } = {},
): Promise<MockProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = portOf(server);
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = `${kind}-client`;
  const claimsByScope: Record<string, string[]> = { openid: ['sub'] };
  for (const [scope, names] of Object.entries(SCOPES[kind])) claimsByScope[scope] = [...names];

  const mock: MockProvider = {
    issuer,
    clientId,
    nextLogin: 'cancel',
    accounts: new Map(),
    tokenOverride: null,
    lastAuthorization: null,
    down: false,
    requests: 0,
    sign(claims) {
      const encode = (part: unknown) => Buffer.from(JSON.stringify(part)).toString('base64url');
      const input = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode(claims)}`;
      const signature = createSign('RSA-SHA256').update(input).sign(privateKey, 'base64url');
      return `${input}.${signature}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const findAccount: FindAccount = (_ctx, sub): Account => ({
    accountId: sub,
    claims: () => ({ sub, ...(mock.accounts.get(sub) ?? {}) }),
  });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [redirectUri.replace(/\/callback$/, '/logged-out')],
        token_endpoint_auth_method: 'client_secret_post',
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [jwk] },
    findAccount,
    claims: claimsByScope,
    scopes: Object.keys(claimsByScope),
    acrValues: [...LEVELS],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // The logout page confirms at once, as the real providers do when the RP sends id_token_hint.
      rpInitiatedLogout: {
        enabled: endSession,
        logoutSource: (ctx, form) => {
          ctx.body = confirmedLogoutPage(`${kind} (mock)`, form);
          return Promise.resolve();
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['mock-provider-cookie-key'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
  });
  const handle = provider.callback();

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    void (async () => {
      mock.requests++;
      if (mock.down) {
        req.socket.destroy();
        return;
      }
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/auth') mock.lastAuthorization = url.searchParams;
      if (url.pathname === '/token' && req.method === 'POST' && mock.tokenOverride) {
        const body = await new Promise<string>((resolve) => {
          let text = '';
          req.on('data', (chunk: Buffer) => (text += chunk.toString()));
          req.on('end', () => resolve(text));
        });
        const answer = await mock.tokenOverride(new URLSearchParams(body));
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
        return;
      }
      if (url.pathname.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(req, res);
        const next = mock.nextLogin;
        if (next === 'cancel') {
          await provider.interactionFinished(req, res, {
            error: 'access_denied',
            error_description: 'The user cancelled',
          });
          return;
        }
        const grant = new provider.Grant({ accountId: next.subject, clientId });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(req, res, {
          login: { accountId: next.subject, acr: next.acr, amr: ['mfa'] },
          consent: { grantId: await grant.save() },
        });
        return;
      }
      await handle(req, res);
    })();
  });
  return mock;
}

/** A server that accepts connections and never answers (a provider hanging). */
export async function startSilentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => undefined);
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = portOf(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A provider sign-in up to its way back: starts at the portal (`query` added to the start), signs
 * in at the provider as its `nextLogin` says, and returns the portal's callback path the provider
 * sends the browser to, not yet requested. Throws when the flow does not end there.
 */
export async function callbackFromProvider(
  client: TestClient,
  provider: 'psc' | 'franceconnect',
  query = '',
): Promise<string> {
  const start = await client.get(`/api/idp/${provider}/start${query}`);
  if (start.statusCode !== 302) throw new Error(`start answered ${start.statusCode}`);
  let location = String(start.headers.location);
  const atProvider = new Browser();
  for (let hop = 0; hop < 10 && !location.startsWith(PORTAL); hop++) {
    const res = await atProvider.request(new URL(location, location).href);
    location = new URL(res.headers.get('location') ?? '', res.url).href;
  }
  if (!location.startsWith(`${PORTAL}/api/idp/${provider}/callback?`)) {
    throw new Error(`the provider sent the browser to ${location}`);
  }
  return location.slice(PORTAL.length);
}

/** The RPPS number of the tests' linked professionals (`linkedProfessional`). */
export const LINKED_RPPS = '10001234567';

/**
 * A professional account (RPPS `LINKED_RPPS`) whose Pro Santé Connect identity `subject` at the
 * mock `psc` is linked to it, as a first sign-in with the provider leaves it. Returns its id.
 */
export async function linkedProfessional(
  t: TestApp,
  psc: MockProvider,
  account: { email: string; password: string; phone: string; subject: string },
): Promise<string> {
  const userId = await createUser(t, {
    email: account.email,
    password: account.password,
    phone: account.phone,
    profile: 'professional',
    professionalId: { type: 'RPPS', value: LINKED_RPPS },
  });
  psc.accounts.set(account.subject, pscClaims(LINKED_RPPS));
  await linkIdentity(t.ctx, 'psc', account.subject, userId);
  return userId;
}
