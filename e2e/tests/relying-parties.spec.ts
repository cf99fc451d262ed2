import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import * as client from 'openid-client';
import {
  cli,
  codeFor,
  enterCode,
  passSecondFactor,
  serverNow,
  termsShown,
  withDatabase,
  xsrfHeader,
} from './support.js';

// Relying parties nobody here wrote, from Debian's packages: Python Authlib and Apache httpd with
// mod_auth_openidc. Each is registered with the CLI, then a patient and a professional sign in
// to it through the portal's real pages (second factor included), and the platform's own side is
// read: the claims it received, its refresh and revocation, RP-initiated and back-channel logout.
test.describe.configure({ mode: 'serial' });

const portal = `http://localhost:${process.env.E2E_PORT ?? 3210}`;
const RELYING_PARTIES = path.resolve(import.meta.dirname, '..', 'relying-parties');
const PYTHON = '/usr/bin/python3'; // Debian's, with Debian's python3-authlib

const PATIENT = {
  email: 'rp.patient@example.fr',
  password: 'Tisane-Verte-47!',
  phone: '06 12 00 00 71',
  e164: '+33612000071',
  ins: '285017512300423',
};
const PROFESSIONAL = {
  email: 'rp.docteur@example.fr',
  password: 'Stetho-Bleu-58!',
  phone: '06 12 00 00 72',
  e164: '+33612000072',
  rpps: '10002909371',
};

/** A JSON answer as an object (anything else reads as empty). */
function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null
    ? Object.fromEntries(Object.entries(value))
    : {};
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Registers a platform at `base` with the CLI, as an operator does: its client id, and its secret
 * ('' for a public client).
 */
function register(
  name: string,
  base: string,
  paths: { redirect: string; postLogout: string; backchannel?: string },
  kind: 'confidential' | 'public' = 'confidential',
): { id: string; secret: string } {
  const out = cli(
    'platform:add',
    ...['--name', name, '--url', base, '--redirect-uri', `${base}${paths.redirect}`],
    ...['--post-logout-uri', `${base}${paths.postLogout}`],
    ...(paths.backchannel ? ['--backchannel-logout-uri', `${base}${paths.backchannel}`] : []),
    ...(kind === 'public' ? ['--public'] : []),
  );
  const id = /^client_id: (\S+)$/m.exec(out)?.[1];
  const secret = /^client_secret: (\S+)$/m.exec(out)?.[1];
  if (!id || (kind === 'confidential' && !secret)) throw new Error(`platform:add printed: ${out}`);
  return { id, secret: kind === 'public' ? '' : (secret ?? '') };
}

/** Starts a process and waits until its output says it listens (or it dies). */
async function started(child: ChildProcess, ready: RegExp, name: string): Promise<void> {
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${String(code)}): ${output}`));
    });
  });
}

/**
 * The portal's sign-in as a person meets it coming from a platform: password, the second factor,
 * then whatever the account still needs (the phone, the terms), and back to the platform.
 */
async function signInFromPlatform(
  page: Page,
  request: APIRequestContext,
  person: { email: string; password: string; e164: string },
): Promise<void> {
  await expect(page).toHaveURL(/\/security\/login\?/);
  await page.locator('#login-username').fill(person.email);
  await page.locator('#login-password').fill(person.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/security\/mfa/);
  await passSecondFactor(page, request, person.email);
  await page.getByTestId('mfa-submit').click();
  for (let step = 0; step < 3; step++) {
    await expect(page).not.toHaveURL(/\/security\/mfa/);
    if (/verify-mobile-phone/.test(page.url())) {
      const since = await serverNow(request);
      await page.getByTestId('verify-phone-send').click();
      await enterCode(page, await codeFor(request, person.e164, since));
      await page.getByTestId('verify-phone-submit').click();
      await expect(page).not.toHaveURL(/verify-mobile-phone/);
    } else if (/accept-cgu/.test(page.url())) {
      await page.locator('#cgu-accept').check();
      await page.getByTestId('cgu-submit').click();
      await expect(page).not.toHaveURL(/accept-cgu/);
    } else {
      return;
    }
  }
}

test.beforeAll(async ({ request }) => {
  // The patient gives their INS at sign-up, as a person would: the portal seals it and derives its
  // OID (a NIR), nothing is written behind the API's back.
  const patient = await request.post('/api/register', {
    headers: await xsrfHeader(request),
    data: {
      type: 'patient',
      email: PATIENT.email,
      password: PATIENT.password,
      passwordConfirmation: PATIENT.password,
      acceptCgu: true,
      ...(await termsShown(request)),
      firstName: 'Camille',
      lastName: 'Lefebvre',
      birthDate: '02/03/1985',
      birthPlaceInsee: '69123',
      sex: 'female',
      phone: PATIENT.phone,
      socialSecurityNumber: PATIENT.ins,
    },
  });
  expect(patient.status(), await patient.text()).toBe(201);
  const res = await request.post('/api/register', {
    headers: await xsrfHeader(request),
    data: {
      type: 'professional',
      email: PROFESSIONAL.email,
      password: PROFESSIONAL.password,
      passwordConfirmation: PROFESSIONAL.password,
      acceptCgu: true,
      ...(await termsShown(request)),
      firstName: 'Amine',
      lastName: 'Haddad',
      birthDate: '14/09/1979',
      birthPlaceInsee: '99352',
      sex: 'male',
      phone: PROFESSIONAL.phone,
      identifier: { type: 'RPPS', value: PROFESSIONAL.rpps },
      job: 'Médecin',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  // An admin checked the professional's identity (the validation screen has its own tests).
  withDatabase((db) => {
    db.prepare("update users set status = 'active' where email = ?").run(PROFESSIONAL.email);
  });
});

test.describe('Python Authlib', () => {
  let rp: ChildProcess;
  let base = '';
  let clientId = '';

  test.beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const { id, secret } = register('Authlib', base, {
      redirect: '/callback',
      postLogout: '/signed-out',
      backchannel: '/backchannel',
    });
    clientId = id;
    rp = spawn(
      PYTHON,
      [path.join(RELYING_PARTIES, 'authlib_rp.py'), `${portal}/oidc`, id, secret, String(port)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, AUTHLIB_INSECURE_TRANSPORT: '1' },
      },
    );
    await started(rp, /listening \d+/, 'the Authlib platform');
  });
  test.afterAll(() => {
    rp.kill();
  });

  async function rpJson(request: APIRequestContext, route: string) {
    const res = await request.get(`${base}${route}`);
    return { status: res.status(), body: record(await res.json()) };
  }

  test('a patient signs in: Authlib validates the ID token and reads the claims, with the INS', async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await signInFromPlatform(page, request, PATIENT);
    await expect(page.locator('#claims')).toContainText(PATIENT.email);
    const { body } = await rpJson(request, '/session');
    expect(body.userinfo).toMatchObject({
      email: PATIENT.email,
      email_verified: true,
      phone_number: PATIENT.e164,
      phone_number_verified: true,
      given_name: 'Camille',
      family_name: 'Lefebvre',
      birthdate: '1985-03-02',
      profile_type: 'patient',
      ins: PATIENT.ins,
      ins_oid: '1.2.250.1.213.1.4.8',
      ins_status: 'provisional',
    });
    expect(body.id_token).toMatchObject({
      aud: clientId,
      amr: ['pwd', 'otp', 'mfa'],
      acr: 'urn:hygie:loa:low',
      sid: expect.any(String),
    });

    // Refresh: new tokens, rotated; userinfo works with the new access token.
    expect((await rpJson(request, '/refresh')).body).toEqual({ refreshed: true, rotated: true });
    expect((await rpJson(request, '/userinfo')).body).toEqual({ status: 200 });
    // Revocation: the refresh token no longer refreshes.
    expect((await rpJson(request, '/revoke')).body).toEqual({ status: 200 });
    expect((await rpJson(request, '/refresh')).body).toEqual({
      refreshed: false,
      error: 'invalid_grant',
    });

    // RP-initiated logout: the portal asks, signs the user out of the portal too, and comes back.
    await page.goto(`${base}/login`);
    await expect(page.locator('#claims')).toContainText(PATIENT.email); // portal session reused
    await page.goto(`${base}/logout`);
    await page.getByRole('button', { name: 'Me déconnecter' }).click();
    await expect(page.locator('#signed-out')).toHaveText('Signed out (bye)');
    await page.goto(`${portal}/`);
    await expect(page).toHaveURL(/\/security\/login/);
    await context.close();
  });

  test('a professional signs in: the RPPS under the health scope; portal sign-out reaches Authlib by the back channel', async ({
    browser,
    request,
  }) => {
    const context: BrowserContext = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await signInFromPlatform(page, request, PROFESSIONAL);
    await expect(page.locator('#claims')).toContainText(PROFESSIONAL.email);
    const { body } = await rpJson(request, '/session');
    expect(body.userinfo).toMatchObject({
      profile_type: 'professional',
      professional_id: PROFESSIONAL.rpps,
      professional_id_type: 'RPPS',
      given_name: 'Amine',
    });
    expect(body.userinfo).not.toHaveProperty('ins');

    // Signing out of the portal: the portal tells the platform, which ends its own session.
    await page.goto(`${portal}/api/logout`);
    await expect(page).toHaveURL(/\/security\/login/);
    await expect.poll(async () => (await rpJson(request, '/session')).status).toBe(401);
    await context.close();
  });

  test('an admin’s access cut and a password reset end the platform’s access', async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await signInFromPlatform(page, request, PATIENT);
    await expect(page.locator('#claims')).toContainText(PATIENT.email);
    expect((await rpJson(request, '/userinfo')).body).toEqual({ status: 200 });

    // The admin's cut (the row the admin screen writes, whose screen has its own browser test):
    // the platform's next refresh and userinfo are refused.
    const ids = withDatabase((db) => ({
      user: String(db.prepare('select id from users where email = ?').pluck().get(PATIENT.email)),
      platform: String(
        db.prepare('select id from platforms where client_id = ?').pluck().get(clientId),
      ),
    }));
    withDatabase((db) => {
      db.prepare(
        "insert into platform_access (user_id, platform_id, status, changed_by, changed_at) values (?, ?, 'disabled', null, ?)",
      ).run(ids.user, ids.platform, Date.now());
    });
    expect((await rpJson(request, '/userinfo')).body).toEqual({ status: 401 });
    expect((await rpJson(request, '/refresh')).body).toMatchObject({ refreshed: false });
    withDatabase((db) => {
      db.prepare('delete from platform_access where user_id = ?').run(ids.user);
    });

    // Signed in again, then the password is reset: the platform is told, its tokens stop.
    await page.goto(`${base}/login`);
    await expect(page.locator('#claims')).toContainText(PATIENT.email);
    expect((await rpJson(request, '/session')).status).toBe(200);
    const since = await serverNow(request);
    const forgot = await request.post('/api/password/forgot', {
      headers: await xsrfHeader(request),
      data: { username: PATIENT.email, channel: 'email' },
    });
    expect(forgot.status()).toBe(200);
    const code = await codeFor(request, PATIENT.email, since);
    const verified = await request.post('/api/password/forgot/verify', {
      headers: await xsrfHeader(request),
      data: { username: PATIENT.email, channel: 'email', code },
    });
    const resetToken = String(record(await verified.json()).resetToken);
    const reset = await request.post('/api/password/reset', {
      headers: await xsrfHeader(request),
      data: {
        resetToken,
        password: 'Lavande-Douce-93!',
        passwordConfirmation: 'Lavande-Douce-93!',
      },
    });
    expect(reset.status(), await reset.text()).toBe(200);
    await expect.poll(async () => (await rpJson(request, '/session')).status).toBe(401);
    await context.close();
  });
});

test.describe('Apache httpd with mod_auth_openidc', () => {
  let httpd: ChildProcess;
  let dir = '';
  let base = '';

  test.beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const { id, secret } = register('Apache', base, {
      redirect: '/protected/redirect_uri',
      postLogout: '/loggedout.html',
      backchannel: '/protected/redirect_uri?logout=backchannel',
    });
    // Apache starts as root and serves as www-data: the directory must be readable by it.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-apache-'));
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(path.join(dir, 'htdocs'));
    fs.writeFileSync(
      path.join(dir, 'htdocs', 'loggedout.html'),
      '<!DOCTYPE html><html lang="en"><head><title>Signed out</title></head><body><main><h1 id="signed-out">Signed out of the platform</h1></main></body></html>',
    );
    fs.copyFileSync(path.join(RELYING_PARTIES, 'claims.cgi'), path.join(dir, 'claims.cgi'));
    fs.chmodSync(path.join(dir, 'claims.cgi'), 0o755);
    const values: Record<string, string> = {
      dir,
      port: String(port),
      issuer: `${portal}/oidc`,
      clientId: id,
      clientSecret: secret,
      passphrase: randomBytes(24).toString('hex'),
    };
    const conf = fs
      .readFileSync(path.join(RELYING_PARTIES, 'apache.conf'), 'utf8')
      .replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
    fs.writeFileSync(path.join(dir, 'httpd.conf'), conf);
    // Its own process group: stopping, Apache signals its whole group (which would be the suite's).
    httpd = spawn('apache2', ['-f', path.join(dir, 'httpd.conf'), '-DFOREGROUND'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    httpd.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const up = await fetch(`${base}/loggedout.html`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || httpd.exitCode !== null) {
        const log = fs.readFileSync(path.join(dir, 'error.log'), { encoding: 'utf8', flag: 'a+' });
        throw new Error(`Apache did not start: ${output} ${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  test.afterAll(async () => {
    if (httpd.exitCode === null && httpd.signalCode === null) {
      const exited = new Promise((resolve) => httpd.once('exit', resolve));
      httpd.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The claims mod_auth_openidc gave the application, as the protected page shows them. */
  async function claimsOn(page: Page): Promise<Record<string, unknown>> {
    await expect(page).toHaveURL(`${base}/protected/claims`);
    return record(JSON.parse((await page.locator('body').textContent()) ?? '{}'));
  }

  test('a patient signs in through the portal; mod_auth_openidc hands the application the claims; RP-initiated logout', async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/protected/claims`);
    await signInFromPlatform(page, request, { ...PATIENT, password: 'Lavande-Douce-93!' });
    const claims = await claimsOn(page);
    expect(claims).toMatchObject({
      email: PATIENT.email,
      email_verified: '1',
      family_name: 'Lefebvre',
      profile_type: 'patient',
      ins: PATIENT.ins,
      ins_oid: '1.2.250.1.213.1.4.8',
      ins_status: 'provisional',
      acr: 'urn:hygie:loa:low',
      amr: 'pwd,otp,mfa',
    });

    // RP-initiated logout: Apache sends the browser to the portal, which asks, then comes back.
    await page.goto(
      `${base}/protected/redirect_uri?logout=${encodeURIComponent(`${base}/loggedout.html`)}`,
    );
    await page.getByRole('button', { name: 'Me déconnecter' }).click();
    await expect(page.locator('#signed-out')).toBeVisible();
    await page.goto(`${base}/protected/claims`);
    await expect(page).toHaveURL(/\/security\/login\?/);
    await context.close();
  });

  test('a professional signs in; signing out of the portal ends the Apache session by the back channel', async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/protected/claims`);
    await signInFromPlatform(page, request, PROFESSIONAL);
    expect(await claimsOn(page)).toMatchObject({
      email: PROFESSIONAL.email,
      profile_type: 'professional',
      professional_id: PROFESSIONAL.rpps,
      professional_id_type: 'RPPS',
    });
    await page.goto(`${portal}/api/logout`);
    await expect(page).toHaveURL(/\/security\/login/);
    // Apache's own session ends once the portal's notice arrives: the page asks to sign in again.
    await expect
      .poll(async () => {
        const res = await context.request.get(`${base}/protected/claims`, { maxRedirects: 0 });
        return res.status();
      })
      .toBe(302);
    await context.close();
  });
});

test.describe('oidc-client-ts in the browser (a single-page platform, public client)', () => {
  let server: http.Server;
  let base = '';
  let clientId = '';

  test.beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    clientId = register(
      'Agenda SPA',
      base,
      { redirect: '/callback', postLogout: '/' },
      'public',
    ).id;
    const bundle = path.resolve(
      import.meta.dirname,
      '..',
      '..',
      'node_modules',
      'oidc-client-ts',
      'dist',
      'browser',
      'oidc-client-ts.min.js',
    );
    const files: Record<string, [string, string]> = {
      '/oidc-client-ts.min.js': ['text/javascript', fs.readFileSync(bundle, 'utf8')],
      '/app.js': [
        'text/javascript',
        fs.readFileSync(path.join(RELYING_PARTIES, 'spa', 'app.js'), 'utf8'),
      ],
      '/config.js': [
        'text/javascript',
        `window.RP_CONFIG = ${JSON.stringify({ authority: `${portal}/oidc`, client_id: clientId })};`,
      ],
    };
    const page = fs.readFileSync(path.join(RELYING_PARTIES, 'spa', 'index.html'), 'utf8');
    server = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? '/', base).pathname;
      const [type, body] = files[pathname] ?? ['text/html; charset=utf-8', page];
      res.writeHead(200, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  test.afterAll(async () => {
    server.closeAllConnections(); // the browser's kept-alive ones too
    await new Promise((resolve) => server.close(resolve));
  });

  test('a patient signs in from the page: the ID token and userinfo claims, with the INS', async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.evaluate(() => {
      void window.platform.login();
    });
    await signInFromPlatform(page, request, { ...PATIENT, password: 'Lavande-Douce-93!' });
    await expect(page.locator('#status')).toHaveText('signed in');
    expect((await page.evaluate(() => window.platform.user()))?.profile).toMatchObject({
      email: PATIENT.email,
      profile_type: 'patient',
      ins: PATIENT.ins,
      ins_oid: '1.2.250.1.213.1.4.8',
      ins_status: 'provisional',
      amr: ['pwd', 'otp', 'mfa'],
    });
    await context.close();
  });

  test('a professional signs in from the page; it refreshes and revokes across origins, then logs out', async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    // The page navigates away to the portal: nothing to wait for in it.
    await page.evaluate(() => {
      void window.platform.login();
    });
    await signInFromPlatform(page, request, PROFESSIONAL);
    await expect(page.locator('#status')).toHaveText('signed in');
    const user = await page.evaluate(() => window.platform.user());
    // The ID token's claims and the userinfo ones (fetched from the page: CORS).
    expect(user?.profile).toMatchObject({
      email: PROFESSIONAL.email,
      profile_type: 'professional',
      professional_id: PROFESSIONAL.rpps,
      acr: 'urn:hygie:loa:low',
    });
    expect(user?.refresh).toEqual(expect.any(String));

    // Refresh from the page's origin: new tokens, the refresh token rotated.
    const refreshed = await page.evaluate(() => window.platform.refresh());
    expect(refreshed).toMatchObject({ access: expect.any(String), refresh: expect.any(String) });
    expect(refreshed).not.toMatchObject({ access: user?.access, refresh: user?.refresh });
    // Revoked (oidc-client-ts then forgets it), the refresh token refreshes no more: presented
    // again from the page, the token endpoint refuses it.
    await page.evaluate(() => window.platform.revoke());
    expect((await page.evaluate(() => window.platform.user()))?.refresh ?? null).toBeNull();
    const presented = await page.evaluate(
      async ({ endpoint, token, client }) => {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: token,
            client_id: client,
          }),
        });
        const body: unknown = await res.json();
        return { status: res.status, body };
      },
      { endpoint: `${portal}/oidc/token`, token: refreshed.refresh ?? '', client: clientId },
    );
    expect(presented).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // Logout from the page: the portal asks, ends its session and returns to the page.
    await page.evaluate(() => {
      void window.platform.logout();
    });
    await page.getByRole('button', { name: 'Me déconnecter' }).click();
    await expect(page).toHaveURL(`${base}/`);
    await page.goto(`${portal}/`);
    await expect(page).toHaveURL(/\/security\/login/);
    await context.close();
  });
});

test.describe('openid-client (Node.js)', () => {
  let server: http.Server;
  let base = '';
  let config: client.Configuration;
  const pending = new Map<string, string>(); // state → PKCE verifier
  let tokens: client.TokenEndpointResponse | undefined;

  test.beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const { id, secret } = register('Node platform', base, {
      redirect: '/callback',
      postLogout: '/',
    });
    config = await client.discovery(
      new URL(`${portal}/oidc`),
      id,
      undefined,
      client.ClientSecretBasic(secret),
      { execute: [client.allowInsecureRequests] },
    );
    server = http.createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', base);
        if (url.pathname === '/login') {
          const verifier = client.randomPKCECodeVerifier();
          const state = client.randomState();
          pending.set(state, verifier);
          const target = client.buildAuthorizationUrl(config, {
            redirect_uri: `${base}/callback`,
            scope: 'openid email profile health',
            state,
            code_challenge: await client.calculatePKCECodeChallenge(verifier),
            code_challenge_method: 'S256',
          });
          res.writeHead(302, { location: target.href }).end();
          return;
        }
        const state = url.searchParams.get('state') ?? '';
        const answer = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: pending.get(state),
          expectedState: state,
        });
        tokens = answer;
        const info = await client.fetchUserInfo(
          config,
          answer.access_token,
          answer.claims()?.sub ?? '',
        );
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!DOCTYPE html><html lang="en"><head><title>Node platform</title></head><body><main><h1>Node platform</h1><pre id="claims">${JSON.stringify(info)}</pre></main></body></html>`,
          );
      })().catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  test.afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const person of ['patient', 'professional'] as const) {
    test(`a ${person} signs in; the platform refreshes, revokes, and is refused after`, async ({
      browser,
      request,
    }) => {
      const who =
        person === 'patient' ? { ...PATIENT, password: 'Lavande-Douce-93!' } : PROFESSIONAL;
      const context = await browser.newContext({ baseURL: portal, locale: 'fr-FR' });
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await signInFromPlatform(page, request, who);
      const claims = record(JSON.parse((await page.locator('#claims').textContent()) ?? '{}'));
      expect(claims).toMatchObject(
        person === 'patient'
          ? { email: PATIENT.email, ins: PATIENT.ins, ins_status: 'provisional' }
          : { email: PROFESSIONAL.email, professional_id: PROFESSIONAL.rpps },
      );
      const first = tokens?.refresh_token ?? '';
      const refreshed = await client.refreshTokenGrant(config, first);
      expect(refreshed.refresh_token).not.toBe(first);
      await client.tokenRevocation(config, refreshed.refresh_token ?? '');
      await expect(
        client.refreshTokenGrant(config, refreshed.refresh_token ?? ''),
      ).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await context.close();
    });
  }
});

/** What the single-page platform's script (relying-parties/spa/app.js) puts on `window`. */
declare global {
  interface Window {
    platform: {
      login(): Promise<void>;
      user(): Promise<{
        profile: Record<string, unknown>;
        access: string;
        refresh?: string;
      } | null>;
      refresh(): Promise<{ access?: string; refresh?: string; error?: string }>;
      revoke(): Promise<void>;
      logout(): Promise<void>;
    };
  }
}
