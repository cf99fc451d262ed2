import http from 'node:http';
import * as client from 'openid-client';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { ADMIN, cli, expectAccessible, passSecondFactor, screenshot } from './support.js';

// A platform's relying party: a tiny server on 127.0.0.1 using openid-client, with one client per
// path prefix (`/open/…` may be used, `/restricted/…` is under the admin policy nobody granted).
// The tests share one browser (the portal session of the first is used by the next).
test.describe.configure({ mode: 'serial' });

const baseURL = `http://localhost:${process.env.E2E_PORT ?? 3210}`;
let context: BrowserContext;
let page: Page;

interface Rp {
  config: client.Configuration;
  pending: Map<string, string>; // state → PKCE verifier
}

const rps = new Map<string, Rp>();
let server: http.Server;
let rpBase = '';

function register(
  name: string,
  prefix: string,
  policy: string,
  thirdParty: boolean,
): { id: string; secret: string } {
  const out = cli(
    'platform:add',
    '--name',
    name,
    '--url',
    `${rpBase}/${prefix}`,
    '--redirect-uri',
    `${rpBase}/${prefix}/callback`,
    '--policy',
    policy,
    ...(thirdParty ? ['--third-party'] : []),
  );
  const id = /^client_id: (\S+)$/m.exec(out)?.[1];
  const secret = /^client_secret: (\S+)$/m.exec(out)?.[1];
  if (!id || !secret) throw new Error(`platform:add printed: ${out}`);
  return { id, secret };
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', rpBase);
  const [, prefix = '', action] = url.pathname.split('/');
  const rp = rps.get(prefix);
  if (!rp) {
    res.writeHead(404).end();
    return;
  }
  if (action === 'login') {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    rp.pending.set(state, verifier);
    const target = client.buildAuthorizationUrl(rp.config, {
      redirect_uri: `${rpBase}/${prefix}/callback`,
      scope: 'openid email profile',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    res.writeHead(302, { location: target.href }).end();
    return;
  }
  const state = url.searchParams.get('state') ?? '';
  const tokens = await client.authorizationCodeGrant(rp.config, url, {
    pkceCodeVerifier: rp.pending.get(state),
    expectedState: state,
  });
  const claims = tokens.claims();
  const info = await client.fetchUserInfo(rp.config, tokens.access_token, claims?.sub ?? '');
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!DOCTYPE html><html lang="en"><head><title>Platform</title></head><body><main><h1>Platform</h1><p id="result">Signed in as ${info.email ?? '?'}</p></main></body></html>`,
    );
}

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ baseURL, locale: 'fr-FR' });
  page = await context.newPage();
  server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null)
    throw new Error('the platform is not listening');
  rpBase = `http://127.0.0.1:${address.port}`;
  for (const [prefix, name, policy, thirdParty] of [
    ['open', 'Plateforme ouverte', 'open', false],
    ['restricted', 'Plateforme réservée', 'admin', false],
    ['partner', 'Plateforme partenaire', 'open', true],
  ] as const) {
    const { id, secret } = register(name, prefix, policy, thirdParty);
    const config = await client.discovery(
      new URL(`${baseURL}/oidc`),
      id,
      undefined,
      client.ClientSecretBasic(secret),
      { execute: [client.allowInsecureRequests] },
    );
    rps.set(prefix, { config, pending: new Map() });
  }
});

test.afterAll(async () => {
  await context.close();
  await new Promise((resolve) => server.close(resolve));
});

test('a platform sends the user to the portal, who signs in with the second factor and comes back with a code', async ({
  request,
}) => {
  await page.goto(`${rpBase}/open/login`);
  await expect(page).toHaveURL(/\/security\/login\?target_uri=/);
  const target = new URL(page.url()).searchParams.get('target_uri') ?? '';
  expect(target).toMatch(new RegExp(`^${baseURL}/oidc/interaction/`));

  await page.locator('#login-username').fill(ADMIN.email);
  await page.locator('#login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/security\/mfa/);
  await passSecondFactor(page, request, ADMIN.email);
  await page.getByTestId('mfa-submit').click();

  // The admin's first sign-in (when this file runs alone) also asks for the terms in force.
  const result = page.locator('#result');
  await expect(result.or(page.locator('#cgu-accept'))).toBeVisible();
  if (await page.locator('#cgu-accept').isVisible()) {
    await page.locator('#cgu-accept').check();
    await page.getByTestId('cgu-submit').click();
  }

  // Back on the platform, which exchanged the code and read the user's claims.
  await expect(result).toHaveText(`Signed in as ${ADMIN.email}`);
  expect(page.url()).toMatch(new RegExp(`^${rpBase}/open/callback\\?code=`));
});

test('a third-party platform asks for consent; once allowed, the user is back on it, signed in', async () => {
  await page.goto(`${rpBase}/partner/login`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Plateforme partenaire');
  await expectAccessible(page, 'oidc consent');
  await page.getByRole('button', { name: 'Autoriser' }).click();
  // The consent form's answer redirects to the platform's own origin: the page's CSP must let it.
  await expect(page.locator('#result')).toHaveText(`Signed in as ${ADMIN.email}`);
  expect(page.url()).toMatch(new RegExp(`^${rpBase}/partner/callback\\?code=`));

  // Consent is remembered: the next sign-in to the platform does not ask again.
  await page.goto(`${rpBase}/partner/login`);
  await expect(page.locator('#result')).toHaveText(`Signed in as ${ADMIN.email}`);
});

test('the user removes the platform’s access from the account; the platform asks for consent again', async () => {
  await page.goto('/platform-access');
  const row = page.getByTestId('consent-row').filter({ hasText: 'Plateforme partenaire' });
  await expect(row).toContainText('votre adresse e-mail');
  await row.getByTestId('consent-remove').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Plateforme partenaire');
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('notification')).toContainText(
    'L’accès de la plateforme a été retiré.',
  );
  await expect(row).toHaveCount(0);

  await page.goto(`${rpBase}/partner/login`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Plateforme partenaire');
  await page.getByRole('button', { name: 'Autoriser' }).click();
  await expect(page.locator('#result')).toHaveText(`Signed in as ${ADMIN.email}`);
});

test('a platform the user may not use ends on the portal’s oauth-error page', async () => {
  await page.goto(`${rpBase}/restricted/login`);
  await expect(page).toHaveURL(/\/oauth-error\?error=access_denied/);
  // Named from the registry by client id (the address carries no name anyone could forge).
  expect(new URL(page.url()).searchParams.has('platform')).toBe(false);
  await expect(page.getByTestId('oauth-error-platform')).toHaveText(
    'Vous ne pouvez pas utiliser Plateforme réservée.',
  );
  await expect(page.getByTestId('oauth-error-platform-link')).toHaveAttribute(
    'href',
    `${rpBase}/restricted`,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Accès refusé' })).toBeVisible();
  await expect(page.getByTestId('oauth-error-explanation')).toContainText(
    'Vous n’avez pas accès à ce service.',
  );
  await expect(page.getByTestId('oauth-error-details')).toHaveText(
    'access_denied — Vous n’avez pas accès à cette plateforme.',
  );
  await expectAccessible(page, 'oauth-error access_denied');
  await screenshot(page, 'oauth-error-access-denied-fr-hygie');

  // Signing out of the portal ends the provider session: the open platform asks to sign in again.
  await page.goto('/api/logout');
  await expect(page).toHaveURL(/\/security\/login/);
  await page.goto(`${rpBase}/open/login`);
  await expect(page).toHaveURL(/\/security\/login\?target_uri=/);
});
