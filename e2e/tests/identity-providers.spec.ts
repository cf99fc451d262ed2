import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import {
  advanceServerClock,
  codeFor,
  enterCode,
  expectAccessible,
  passSecondFactor,
  registerPatient,
  serverNow,
  signInPatient,
  signOut,
  submitLogin,
  termsShown,
  useLanguage,
  withDatabase,
  xsrfHeader,
} from './support';
import { camilleLefebvreClaims, pscClaims } from '../fixtures/mock-identities.mjs';

// Signing in with Pro Santé Connect and FranceConnect (docs/identity-providers.md) against the mock
// providers of e2e/mock-providers.mjs, which playwright.config.ts starts before the portal.

type Kind = 'psc' | 'franceconnect';

const PSC_PORT = Number(process.env.E2E_IDP_PORT);
const MOCK = {
  psc: `http://127.0.0.1:${PSC_PORT}`,
  franceconnect: `http://127.0.0.1:${PSC_PORT + 1}`,
};

/** Calls a mock provider's control API (its accounts, whether it answers). */
async function control(kind: Kind, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${MOCK[kind]}/__mock/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** Clicks the provider's button on the login page and signs in at the provider as `subject`. */
async function signInAtProvider(page: Page, kind: Kind, subject: string, acr: string) {
  await page.getByTestId(`idp-${kind}`).click();
  await expect(page).toHaveURL(new RegExp(`^${MOCK[kind]}/interaction/`));
  await page.locator('#subject').fill(subject);
  await page.locator('#acr').selectOption(acr);
  await page.getByTestId('mock-sign-in').click();
}

/** The stages after the password of a fresh account: second factor, phone, terms. */
async function finishFirstSignIn(
  page: Page,
  request: APIRequestContext,
  person: { email: string; e164: string },
) {
  await expect(page).toHaveURL(/\/security\/mfa/);
  await passSecondFactor(page, request, person.email);
  await page.getByTestId('mfa-submit').click();
  await expect(page).not.toHaveURL(/\/security\/mfa/);
  if (/verify-mobile-phone/.test(page.url())) {
    const since = await serverNow(request);
    await page.getByTestId('verify-phone-send').click();
    await enterCode(page, await codeFor(request, person.e164, since));
    await page.getByTestId('verify-phone-submit').click();
    await expect(page).not.toHaveURL(/verify-mobile-phone/);
  }
  if (/accept-cgu/.test(page.url())) {
    await page.locator('#cgu-accept').check();
    await page.getByTestId('cgu-submit').click();
    await expect(page).not.toHaveURL(/accept-cgu/);
  }
}

test('the login page offers both providers, accessible in French and in Arabic', async ({
  page,
}) => {
  await page.goto('/security/login');
  await expect(page.getByTestId('idp-psc')).toHaveText('Se connecter avec Pro Santé Connect');
  await expect(page.getByTestId('idp-franceconnect')).toHaveText('S’identifier avec FranceConnect');
  await expectAccessible(page, 'login with providers (fr)');

  await useLanguage(page, 'ar');
  await page.goto('/security/login');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('idp-psc')).toHaveText('تسجيل الدخول عبر Pro Santé Connect');
  await expect(page.getByTestId('idp-franceconnect')).toHaveText('تسجيل الدخول عبر FranceConnect');
  await expectAccessible(page, 'login with providers (ar)');

  // Keyboard: the buttons are reached by Tab and started by Enter (the provider's page follows).
  await page.getByTestId('idp-psc').focus();
  await expect(page.getByTestId('idp-psc')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`^${MOCK.psc}/interaction/`));
});

test('a professional links Pro Santé Connect with the password once, then signs in with it alone', async ({
  page,
  request,
}) => {
  const rpps = '10003160420';
  const person = {
    email: 'dr.idp.psc@hygie.test',
    password: 'Velours-Quartz-2026!',
    phone: '06 12 34 50 01',
    e164: '+33612345001',
  };
  const res = await request.post('/api/register', {
    headers: await xsrfHeader(request),
    data: {
      type: 'professional',
      email: person.email,
      password: person.password,
      passwordConfirmation: person.password,
      acceptCgu: true,
      ...(await termsShown(request)),
      firstName: 'Inès',
      lastName: 'Garnier',
      birthDate: '11/06/1982',
      birthPlaceInsee: '33063',
      sex: 'female',
      phone: person.phone,
      identifier: { type: 'RPPS', value: rpps },
      job: 'Médecin',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  // An admin checked the professional's identity (the validation screen has its own tests).
  withDatabase((db) => {
    db.prepare("update users set status = 'active' where email = ?").run(person.email);
  });
  await control('psc', 'accounts', {
    sub: 'psc-ines-garnier',
    claims: pscClaims(rpps, 'Inès', 'Garnier', 'MME'),
  });

  // First sign-in with PSC: the identity is linked to no account yet.
  await page.goto('/security/login');
  await signInAtProvider(page, 'psc', 'psc-ines-garnier', 'eidas1');
  await expect(page).toHaveURL(/\/security\/login\?.*idp_link=psc/);
  await expect(page.getByTestId('idp-link')).toContainText('Pro Santé Connect');
  await expectAccessible(page, 'login in link mode');

  // The password and the second factor prove the account: the identity is linked to it.
  await submitLogin(page, 'fr', person.email, person.password);
  await finishFirstSignIn(page, request, person);
  await expect(page).toHaveURL(/\/devices\?idp_link=psc/);
  await expect(page.getByTestId('identity-link-outcome')).toContainText('Pro Santé Connect');
  await expect(page.getByTestId('identity-link-row')).toHaveCount(1);
  await expect(page.getByTestId('identity-link-row')).toContainText('Pro Santé Connect');
  // Checked once the list has loaded (the refresh button is greyed while it is fetched).
  await expect(page.getByTestId('devices-refresh')).toBeEnabled();
  await expectAccessible(page, 'devices with a link');

  // Signed out, PSC alone signs in: its eidas1 is two factors (no portal second factor).
  await signOut(page);
  await signInAtProvider(page, 'psc', 'psc-ines-garnier', 'eidas1');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu')).toBeVisible();
});

test('FranceConnect below the configured level: the portal asks its own second factor; FranceConnect+ does not', async ({
  page,
  request,
}) => {
  const person = {
    email: 'idp.fc.patient@hygie.test',
    password: 'Lagune-Mistral-2026!',
    phone: '06 12 34 50 02',
    e164: '+33612345002',
  };
  // Registered as Camille Lefebvre, born 02/03/1985 in Lyon (69123), female.
  await registerPatient(request, {
    email: person.email,
    password: person.password,
    phone: person.phone,
  });
  await control('franceconnect', 'accounts', {
    sub: 'fc-camille-lefebvre',
    claims: camilleLefebvreClaims(),
  });

  // Linked once, after the password and the second factor (the traits match the stored ones).
  await page.goto('/security/login');
  await signInAtProvider(page, 'franceconnect', 'fc-camille-lefebvre', 'eidas1');
  await expect(page).toHaveURL(/\/security\/login\?.*idp_link=franceconnect/);
  await submitLogin(page, 'fr', person.email, person.password);
  await finishFirstSignIn(page, request, person);
  await expect(page).toHaveURL(/\/devices\?idp_link=franceconnect/);
  await expect(page.getByTestId('identity-link-row')).toContainText('FranceConnect');

  // FranceConnect's eidas1 may be one password: the portal's second factor follows.
  await signOut(page);
  await signInAtProvider(page, 'franceconnect', 'fc-camille-lefebvre', 'eidas1');
  await expect(page).toHaveURL(/\/security\/mfa/);
  await passSecondFactor(page, request, person.email);
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu')).toBeVisible();

  // FranceConnect+ (eidas2) is two factors: straight in.
  await signOut(page);
  await signInAtProvider(page, 'franceconnect', 'fc-camille-lefebvre', 'eidas2');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu')).toBeVisible();
});

test('cancelled at the provider: back on the login page, which says so', async ({ page }) => {
  await page.goto('/security/login');
  await page.getByTestId('idp-franceconnect').click();
  await expect(page).toHaveURL(new RegExp(`^${MOCK.franceconnect}/interaction/`));
  await page.getByTestId('mock-cancel').click();
  await expect(page).toHaveURL(/\/security\/login\?idp_error=cancelled/);
  await expect(page.getByTestId('idp-error')).toHaveText(
    'Connexion annulée : vous pouvez réessayer, ou vous connecter avec votre mot de passe.',
  );
  await expect(page.locator('#login-username')).toBeVisible();
  await expectAccessible(page, 'login after a cancelled provider sign-in');
});

test('provider down: identity_provider_unavailable, the password sign-in still offered', async ({
  page,
  request,
}) => {
  // The portal keeps a provider's discovery an hour: past it, the provider is asked again.
  await advanceServerClock(request, 61 * 60);
  await control('psc', 'down', { down: true });
  try {
    await page.goto('/security/login');
    await page.getByTestId('idp-psc').click();
    await expect(page).toHaveURL(/\/security\/login\?idp_error=identity_provider_unavailable/);
    await expect(page.getByTestId('idp-error')).toHaveText(
      'La connexion avec cette méthode est actuellement indisponible. Réessayez dans quelques instants, ou connectez-vous avec votre mot de passe.',
    );
    await expect(page.locator('#login-username')).toBeVisible();
    await expect(page.getByTestId('idp-psc')).toBeVisible();
  } finally {
    await control('psc', 'down', { down: false });
  }
  // Back up, but the portal leaves a provider that failed alone for 30 seconds: a retry at once
  // answers the same without waiting for it.
  await page.goto('/security/login');
  await page.getByTestId('idp-psc').click();
  await expect(page).toHaveURL(/\/security\/login\?idp_error=identity_provider_unavailable/);
  // Past that window, the retry reaches the provider again.
  await advanceServerClock(request, 31);
  await page.getByTestId('idp-psc').click();
  await expect(page).toHaveURL(new RegExp(`^${MOCK.psc}/interaction/`));
});

test('signing out of the portal also signs out of FranceConnect, then back on the login page', async ({
  page,
  request,
}) => {
  const person = {
    email: 'idp.fc.logout@hygie.test',
    password: 'Brume-Calanque-2026!',
    phone: '06 12 34 50 03',
    e164: '+33612345003',
  };
  await registerPatient(request, {
    email: person.email,
    password: person.password,
    phone: person.phone,
  });
  // Through the stages once with the password (e-mail, phone, terms); the link made directly
  // (the linking journey has its own test above).
  await signInPatient(page, request, person);
  await signOut(page);
  withDatabase((db) => {
    const user = db.prepare('select id from users where email = ?').get(person.email);
    if (!user || typeof user !== 'object' || !('id' in user)) throw new Error('no such account');
    db.prepare(
      'insert into identity_links (provider, subject, user_id, created_at) values (?, ?, ?, ?)',
    ).run('franceconnect', 'fc-logout-camille', user.id, Date.now());
  });
  await control('franceconnect', 'accounts', {
    sub: 'fc-logout-camille',
    claims: camilleLefebvreClaims(),
  });

  await page.goto('/security/login');
  await signInAtProvider(page, 'franceconnect', 'fc-logout-camille', 'eidas2');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  const sessionAtProvider = async () =>
    (await page.context().cookies(MOCK.franceconnect)).some((c) => c.name === '_session');
  expect(await sessionAtProvider()).toBe(true);

  // Signing out goes through FranceConnect's logout (with the ID token as hint), then back.
  const endSession = page.waitForRequest((r) =>
    r.url().startsWith(`${MOCK.franceconnect}/session/end?`),
  );
  await signOut(page);
  const hint = new URL((await endSession).url()).searchParams.get('id_token_hint');
  expect(hint).toMatch(/^ey/);
  await expect(page).toHaveURL(/\/security\/login$/);
  await expect(page.locator('#login-username')).toBeVisible();
  expect(await sessionAtProvider()).toBe(false);
  expect((await page.request.get('/api/me')).status()).toBe(401);
  await expectAccessible(page, 'login after signing out of FranceConnect');

  // A new FranceConnect sign-in asks the provider for the person again.
  await page.getByTestId('idp-franceconnect').click();
  await expect(page).toHaveURL(new RegExp(`^${MOCK.franceconnect}/interaction/`));
  await expect(page.locator('#subject')).toBeVisible();
});
