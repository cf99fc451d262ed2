import http from 'node:http';
import * as client from 'openid-client';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import {
  cli,
  enterCode,
  expectAccessible,
  registerPatient,
  screenshot,
  serverNow,
  signInPatient,
  totpCode,
  useLanguage,
} from './support.js';

// Levels of assurance (issue #20): a platform registered with a minimum level (substantial) sends
// a password + e-mail code session to the step-up screen; the authenticator app raises it and the
// platform's ID token says so (acr, amr). A user with no strong means gets the explanation of how
// to enrol one, and a cancel the platform hears as unmet_authentication_requirements. The account
// area shows the session's level.
test.describe.configure({ mode: 'serial' });

const baseURL = `http://localhost:${process.env.E2E_PORT ?? 3210}`;
const stamp = Date.now();
const WITH_APP = {
  email: `loa-app-${stamp}@hygie.test`,
  password: 'Quiet-Harbour-83',
  phone: '06 44 55 66 48',
  e164: '+33644556648',
};
const WITHOUT_MEANS = {
  email: `loa-none-${stamp}@hygie.test`,
  password: 'Quiet-Harbour-84',
  phone: '06 44 55 66 49',
  e164: '+33644556649',
};

let context: BrowserContext;
let page: Page;
let server: http.Server;
let rpBase = '';
let config: client.Configuration;
const pending = new Map<string, string>(); // state → PKCE verifier

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page200(res: http.ServerResponse, body: string): void {
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!DOCTYPE html><html lang="en"><head><title>Platform</title></head><body><main><h1>Platform</h1>${body}</main></body></html>`,
    );
}

/** The platform: /login starts a sign-in, /callback shows what its ID token says (or the error). */
async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', rpBase);
  if (url.pathname === '/login') {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    pending.set(state, verifier);
    const target = client.buildAuthorizationUrl(config, {
      redirect_uri: `${rpBase}/callback`,
      scope: 'openid email',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    res.writeHead(302, { location: target.href }).end();
    return;
  }
  const error = url.searchParams.get('error');
  if (error) {
    page200(res, `<p id="error">${escapeHtml(error)}</p>`);
    return;
  }
  const state = url.searchParams.get('state') ?? '';
  const tokens = await client.authorizationCodeGrant(config, url, {
    pkceCodeVerifier: pending.get(state),
    expectedState: state,
  });
  const claims = tokens.claims();
  const amr = Array.isArray(claims?.amr) ? claims.amr.join(' ') : '';
  page200(
    res,
    `<p id="acr">${escapeHtml(String(claims?.acr ?? ''))}</p><p id="amr">${escapeHtml(amr)}</p>`,
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
  if (typeof address !== 'object' || address === null) throw new Error('the platform is down');
  rpBase = `http://127.0.0.1:${address.port}`;
  // Registered by the operator's command with its minimum level.
  const out = cli(
    'platform:add',
    ...['--name', 'Dossier de soins', '--url', rpBase],
    ...['--redirect-uri', `${rpBase}/callback`, '--assurance', 'substantial'],
  );
  const id = /^client_id: (\S+)$/m.exec(out)?.[1];
  const secret = /^client_secret: (\S+)$/m.exec(out)?.[1];
  if (!id || !secret) throw new Error(`platform:add printed: ${out}`);
  config = await client.discovery(
    new URL(`${baseURL}/oidc`),
    id,
    undefined,
    client.ClientSecretBasic(secret),
    { execute: [client.allowInsecureRequests] },
  );
});

test.afterAll(async () => {
  await context.close();
  await new Promise((resolve) => server.close(resolve));
});

test('a password + e-mail code session steps up with the authenticator app; the platform’s ID token says substantial and otp', async ({
  request,
}) => {
  await registerPatient(request, WITH_APP);
  await signInPatient(page, request, WITH_APP);

  // The authenticator app, enrolled from the key shown (as authenticator-app.spec.ts does).
  await page.goto('/devices');
  await page.getByTestId('totp-add').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('totp-qr')).toBeVisible();
  const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s+/g, '');
  await enterCode(page, totpCode(secret, await serverNow(request)));
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('totp-status')).toBeVisible();

  // The session rests on the password and a code by e-mail: low, below the platform's minimum.
  await page.goto(`${rpBase}/login`);
  await expect(page).toHaveURL(/\/security\/step-up\?/);
  const params = new URL(page.url()).searchParams;
  expect(params.get('level')).toBe('substantial');
  expect(params.get('target_uri')).toMatch(new RegExp(`^${baseURL}/oidc/interaction/`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Renforcer votre connexion');
  // The platform named from the registry (isolated: a name may be written right to left).
  await expect(page.getByTestId('step-up-required')).toHaveText(
    '\u2068Dossier de soins\u2069 demande un niveau de sécurité substantiel.',
  );
  await expect(page.getByTestId('step-up-current')).toHaveText(
    'Votre connexion actuelle a un niveau de sécurité faible.',
  );
  await expect(page.getByTestId('step-up-totp')).toBeVisible();
  await expect(page.getByTestId('code-input').locator('input')).toHaveCount(6);
  await expectAccessible(page, 'step-up with the authenticator app (fr)');
  await screenshot(page, 'step-up-totp-fr-hygie');

  // The code of the next step: the enrolment's own step is used already. Sent from the keyboard.
  await enterCode(page, totpCode(secret, (await serverNow(request)) + 30_000));
  await page.getByTestId('step-up-totp-submit').focus();
  await page.keyboard.press('Enter');

  // Back on the platform, which exchanged the code: the ID token carries the level reached.
  await expect(page.locator('#acr')).toHaveText('urn:hygie:loa:substantial');
  const amr = ((await page.locator('#amr').textContent()) ?? '').split(' ');
  expect(amr).toEqual(expect.arrayContaining(['pwd', 'otp']));
  expect(page.url()).toMatch(new RegExp(`^${rpBase}/callback\\?`));
});

test('the account area shows the session’s level, in words', async () => {
  await page.goto('/sessions');
  const value = page.getByTestId('current-level-value');
  await expect(value).toHaveText('Niveau substantiel');
  await expect(value).toHaveAttribute('data-level', 'substantial');
  const current = page.locator('[data-testid="session-row"][data-current="true"]');
  await expect(current.getByTestId('session-level')).toHaveText('Substantiel');
  await expect(current).toContainText('application d’authentification');
  await expectAccessible(page, 'sessions with the level (fr)');
});

test('in Arabic, a user with no strong means gets the explanation of how to enrol one; the cancel tells the platform', async ({
  browser,
  request,
}) => {
  const arabic = await browser.newContext({ baseURL, locale: 'ar' });
  const second = await arabic.newPage();
  await useLanguage(second, 'ar');
  await registerPatient(request, WITHOUT_MEANS);
  await signInPatient(second, request, WITHOUT_MEANS, { language: 'ar' });

  await second.goto(`${rpBase}/login`);
  await expect(second).toHaveURL(/\/security\/step-up\?/);
  await expect(second.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(second.getByTestId('step-up-required')).toHaveText(
    'تطلب \u2068Dossier de soins\u2069 مستوى أمان جوهري.',
  );
  const enrolment = second.getByTestId('step-up-enrolment');
  await expect(enrolment).toBeVisible();
  await expect(enrolment.getByRole('heading', { level: 2 })).toHaveText(
    'لا تبلغ أيٌّ من وسائل تسجيل دخولك هذا المستوى',
  );
  await expect(enrolment.getByRole('link', { name: 'إضافة تطبيق مصادقة' })).toHaveAttribute(
    'href',
    '/devices',
  );
  // No code field: nothing of the user's reaches the level, nothing is downgraded either.
  await expect(second.getByTestId('code-input')).toHaveCount(0);
  await expectAccessible(second, 'step-up enrolment explanation (ar)');
  await screenshot(second, 'step-up-enrolment-ar-hygie');

  // The way back: the platform hears that the level was not met.
  const cancel = second.getByTestId('step-up-cancel');
  await expect(cancel).toHaveText('إلغاء والعودة إلى \u2068Dossier de soins\u2069');
  await cancel.focus();
  await second.keyboard.press('Enter');
  await expect(second.locator('#error')).toHaveText('unmet_authentication_requirements');
  await arabic.close();
});
