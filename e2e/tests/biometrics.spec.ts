import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  cli,
  expectAccessible,
  passSecondFactor,
  screenshot,
  signOut,
  submitLogin,
  useLanguage,
} from './support.js';

// Biometric sign-in: passkeys in Chromium (virtual authenticator) and the app's key through a
// test double of the native bridge (docs/native-bridge.md) holding a real P-256 key.

const PASSWORD = 'Amber-Forest-61';
const APP_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 9; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0 Mobile Safari/537.36 HygieApp/3.2.0 biometry/2.0';

type Language = 'fr' | 'ar';

/** A call the app's page made to the bridge double (recorded in the page, read by the tests). */
interface RecordedCall {
  name: string;
  payload: string;
  args: number;
  hasCallback: boolean;
}

// What the bridge double (below) adds to the page's window.
declare global {
  interface Window {
    __bridgeCalls?: RecordedCall[];
    HygieNativeBridge?: {
      call(name: string, payload: string, callback?: (result: string) => void): void;
    };
  }
}

/** An invited person sets a password, then signs in (password, second factor, terms). */
async function newUserSignsIn(
  page: Page,
  request: APIRequestContext,
  prefix: string,
  language: Language,
): Promise<string> {
  const email = `${prefix}-${Date.now()}@hygie.test`;
  const link = cli('invite', '--email', email, '--first-name', 'Inès');
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.locator('#first-login-password').fill(PASSWORD);
  await page.locator('#first-login-password-confirmation').fill(PASSWORD);
  await page.getByTestId('first-login-submit').click();
  await expect(page).toHaveURL(/\/security\/login/);
  await submitLogin(page, language, email, PASSWORD);
  await passSecondFactor(page, request, email);
  await page.locator('#mfa-trust-device').check();
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/security\/accept-cgu/);
  await page.locator('#cgu-accept').check();
  await page.getByTestId('cgu-submit').click();
  return email;
}

for (const language of ['fr', 'ar'] as const) {
  test(`passkey: enrol from My devices, sign out, sign in with it (${language})`, async ({
    page,
    request,
  }) => {
    await useLanguage(page, language);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    const email = await newUserSignsIn(page, request, `passkey-${language}`, language);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');

    await page.goto('/devices');
    await page.getByTestId('passkey-add').click();
    await expect(page.locator('#passkey-device-name')).toHaveValue(
      language === 'ar' ? 'Chrome على Linux' : 'Chrome sur Linux',
    );
    await page.getByTestId('passkey-create').click();
    // The first passkey brings the account's first recovery codes, shown once: closed only once
    // the user says they are saved.
    const codes = page.getByTestId('recovery-codes-dialog');
    await expect(codes.getByTestId('recovery-codes-list').locator('li')).toHaveCount(10);
    await expect(codes.getByTestId('recovery-codes-done')).toBeDisabled();
    await expectAccessible(page, `first recovery codes ${language}`);
    await screenshot(page, `recovery-codes-passkey-${language}`);
    await codes.getByRole('checkbox').check();
    await codes.getByTestId('recovery-codes-done').click();
    await expect(codes).toHaveCount(0);
    await expect(page.getByTestId('biometric-key-row')).toHaveCount(1);
    await expect(page.getByTestId('biometric-key-row')).toContainText('Linux');
    await screenshot(page, `biometric-keys-${language}`);

    await signOut(page);
    await expect(page.getByTestId('passkey-login')).toBeVisible();
    await expectAccessible(page, `login with passkey ${language}`);
    await screenshot(page, `login-passkey-${language}`);
    // Discoverable: the browser offers its passkey for the site, whatever name is typed (or none).
    if (language === 'fr') await page.locator('#login-username').fill(email);
    await page.getByTestId('passkey-login').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('user-menu')).toBeVisible();

    // Revoked in My devices: the passkey no longer signs in.
    await page.goto('/devices');
    await page.getByTestId('biometric-key-revoke').click();
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('biometric-key-row')).toHaveCount(0);
    await signOut(page);
    await page.getByTestId('passkey-login').click();
    await expect(page.getByTestId('biometric-error')).toBeVisible();
    await expect(page.getByTestId('biometric-error')).toHaveAttribute('role', 'alert');
  });
}

/**
 * The app's side of the bridge (docs/native-bridge.md §3), run before the page's scripts: a
 * P-256 key made with WebCrypto (kept as a JWK in localStorage, as the app keeps its key in the
 * keystore), every call recorded in `window.__bridgeCalls`. `localStorage['e2e.bridge.mode']`
 * = `key_invalidated` makes signChallenge answer that error.
 */
function bridgeDouble() {
  const calls: RecordedCall[] = [];
  window.__bridgeCalls = calls;
  const b64url = (bytes: ArrayBuffer | Uint8Array) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  const keys = (): Record<string, JsonWebKey> => {
    const stored: unknown = JSON.parse(localStorage.getItem('e2e.bridge.keys') ?? '{}');
    const found: Record<string, JsonWebKey> = {};
    if (typeof stored !== 'object' || stored === null) return found;
    for (const [keyId, jwk] of Object.entries(stored)) {
      if (typeof jwk === 'object' && jwk !== null) found[keyId] = jwk;
    }
    return found;
  };
  const saveKeys = (value: Record<string, JsonWebKey>) =>
    localStorage.setItem('e2e.bridge.keys', JSON.stringify(value));
  const ecdsa = { name: 'ECDSA', hash: 'SHA-256' };
  const sign = (key: CryptoKey, challenge: string) =>
    crypto.subtle.sign(ecdsa, key, new TextEncoder().encode(challenge));

  async function answer(name: string, payload: Record<string, string>): Promise<object> {
    switch (name) {
      case 'biometricAvailability':
        return { ok: true, available: true, kind: 'fingerprint' };
      case 'createBiometricKey': {
        const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
          'sign',
          'verify',
        ]);
        const keyId = b64url(crypto.getRandomValues(new Uint8Array(16)));
        saveKeys({ ...keys(), [keyId]: await crypto.subtle.exportKey('jwk', pair.privateKey) });
        return {
          ok: true,
          keyId,
          publicKey: b64url(await crypto.subtle.exportKey('spki', pair.publicKey)),
          signature: b64url(await sign(pair.privateKey, payload.challenge ?? '')),
        };
      }
      case 'signChallenge': {
        const jwk = keys()[payload.keyId ?? ''];
        if (localStorage.getItem('e2e.bridge.mode') === 'key_invalidated' || !jwk) {
          return { ok: false, error: 'key_invalidated' };
        }
        const key = await crypto.subtle.importKey(
          'jwk',
          jwk,
          { name: 'ECDSA', namedCurve: 'P-256' },
          false,
          ['sign'],
        );
        return { ok: true, signature: b64url(await sign(key, payload.challenge ?? '')) };
      }
      case 'deleteBiometricKey': {
        const rest = keys();
        delete rest[payload.keyId ?? ''];
        saveKeys(rest);
        return { ok: true };
      }
      default:
        return { ok: false, error: 'not_available' };
    }
  }

  window.HygieNativeBridge = {
    call(name: string, payload: string, callback?: (result: string) => void) {
      calls.push({ name, payload, args: arguments.length, hasCallback: !!callback });
      if (!callback) return;
      const parsed: unknown = payload ? JSON.parse(payload) : {};
      const input: Record<string, string> = {};
      if (typeof parsed === 'object' && parsed !== null) {
        for (const [key, value] of Object.entries(parsed)) {
          if (typeof value === 'string') input[key] = value;
        }
      }
      answer(name, input).then(
        (result) => callback(JSON.stringify(result)),
        () => callback(JSON.stringify({ ok: false, error: 'enrol_failed' })),
      );
    },
  };
}

async function bridgeCalls(page: Page): Promise<RecordedCall[]> {
  const calls = await page.evaluate(() => window.__bridgeCalls);
  if (!calls) throw new Error('the bridge double is not installed');
  return calls;
}

async function expectLoadingScreenHiddenOnce(page: Page): Promise<void> {
  await expect
    .poll(async () => (await bridgeCalls(page)).filter((c) => c.name === 'hideLoadingScreen'))
    .toEqual([{ name: 'hideLoadingScreen', payload: '', args: 2, hasCallback: false }]);
}

test('the app: enrolment question, biometric sign-in, invalidated key', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ userAgent: APP_UA, locale: 'fr-FR' });
  await context.addInitScript(bridgeDouble);
  const page = await context.newPage();

  await page.goto('/security/login');
  await expect(page.locator('#login-username')).toBeVisible();
  await expectLoadingScreenHiddenOnce(page);
  // No key on this device yet, and never passkeys inside the app.
  await expect(page.getByTestId('biometric-login')).toHaveCount(0);
  await expect(page.getByTestId('passkey-login')).toHaveCount(0);

  // Password + second factor inside the app → the enrolment question.
  const email = await newUserSignsIn(page, request, 'app', 'fr');
  await expect(page).toHaveURL(/\/security\/biometrics/);
  await expect(page.getByTestId('biometrics-warning')).toContainText('toute personne');
  await expect(page.getByRole('link', { name: 'Revenir à la connexion normale' })).toBeVisible();
  await expectAccessible(page, 'biometric enrolment');
  await screenshot(page, 'biometrics-enrolment-fr');
  await page.getByTestId('biometrics-accept').click();
  await expect(page).toHaveURL(/\/$/);
  const keyId = await page.evaluate(() => localStorage.getItem('biometrics.keyId'));
  expect(keyId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const create = (await bridgeCalls(page)).find((c) => c.name === 'createBiometricKey');
  expect(create?.hasCallback).toBe(true);
  expect(JSON.parse(create?.payload ?? '{}')).toMatchObject({
    promptTitle: 'Activer la connexion biométrique',
  });

  // The key is listed in My devices as the app's.
  await page.goto('/devices');
  await expect(page.getByTestId('biometric-key-row')).toHaveCount(1);
  await expect(page.getByTestId('biometric-key-row')).toContainText('Application mobile');
  await expect(page.getByTestId('passkey-add')).toHaveCount(0);

  // Sign out, then back in with biometrics.
  await signOut(page);
  await expectLoadingScreenHiddenOnce(page);
  await expect(page.getByTestId('biometric-login')).toBeVisible();
  await expectAccessible(page, 'login with biometrics');
  await screenshot(page, 'login-biometrics-fr');
  await page.getByTestId('biometric-login').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  const sign = (await bridgeCalls(page)).find((c) => c.name === 'signChallenge');
  expect(JSON.parse(sign?.payload ?? '{}')).toMatchObject({
    keyId,
    promptTitle: 'Connexion à Hygie',
  });

  // A new fingerprint on the phone: the app answers key_invalidated.
  await signOut(page);
  await page.evaluate(() => localStorage.setItem('e2e.bridge.mode', 'key_invalidated'));
  await page.getByTestId('biometric-login').click();
  await expect(page.getByTestId('biometric-error')).toHaveText(
    'Votre clé biométrique n’est plus valide. Veuillez refaire l’enrôlement biométrique.',
  );
  await expect(page.getByTestId('biometric-login')).toHaveCount(0);
  await expect
    .poll(async () => (await bridgeCalls(page)).some((c) => c.name === 'deleteBiometricKey'))
    .toBe(true);
  expect(await page.evaluate(() => localStorage.getItem('biometrics.keyId'))).toBeNull();
  await expectAccessible(page, 'login with an invalidated key');

  // The next password sign-in asks the enrolment question again (this device is trusted).
  await page.evaluate(() => localStorage.removeItem('e2e.bridge.mode'));
  await submitLogin(page, 'fr', email, PASSWORD);
  await expect(page).toHaveURL(/\/security\/biometrics/);
  await page.getByTestId('biometrics-decline').click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('biometrics.declined'))).toBe('1');
  await context.close();
});

test('a plain browser never calls the bridge', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  await context.addInitScript(bridgeDouble);
  const page = await context.newPage();
  await page.goto('/security/login');
  await expect(page.getByTestId('passkey-login')).toBeVisible();
  await expect(page.getByTestId('biometric-login')).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(await bridgeCalls(page)).toEqual([]);
  await context.close();
});

test('the enrolment screen without a session links to login (ar, rtl)', async ({ page }) => {
  await useLanguage(page, 'ar');
  await page.goto('/security/biometrics');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('link', { name: 'العودة إلى الدخول العادي' })).toBeVisible();
  await expectAccessible(page, 'biometric enrolment without session');
});
