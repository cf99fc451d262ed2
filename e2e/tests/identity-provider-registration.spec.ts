import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import {
  codeFor,
  enterCode,
  expectAccessible,
  linkIn,
  serverNow,
  useLanguage,
  withDatabase,
} from './support';

// Registering from the registration choice screen with Pro Santé Connect or FranceConnect
// (docs/identity-providers.md): an identity linked to no account lands in the registration
// pre-filled with what the provider asserted. Against the mock providers of e2e/mock-providers.mjs.

type Kind = 'psc' | 'franceconnect';

const PSC_PORT = Number(process.env.E2E_IDP_PORT);
const MOCK = {
  psc: `http://127.0.0.1:${PSC_PORT}`,
  franceconnect: `http://127.0.0.1:${PSC_PORT + 1}`,
};

/** Registers a subject and its claims at a mock provider. */
async function mockAccount(kind: Kind, sub: string, claims: Record<string, unknown>) {
  const res = await fetch(`${MOCK[kind]}/__mock/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sub, claims }),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** At the mock provider's sign-in page: signs in as `subject` at the level `acr`. */
async function signInAtProvider(page: Page, kind: Kind, subject: string, acr = 'eidas1') {
  await expect(page).toHaveURL(new RegExp(`^${MOCK[kind]}/interaction/`));
  await page.locator('#subject').fill(subject);
  await page.locator('#acr').selectOption(acr);
  await page.getByTestId('mock-sign-in').click();
}

/** Presses Tab until `target` has the focus (at most `limit` times); fails otherwise. */
async function tabTo(page: Page, testId: string, limit = 30) {
  const target = page.getByTestId(testId);
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${testId} never got the focus by Tab`);
}

/** Chooses the sex in the registration form (a native select, or MUI's listbox). */
async function chooseSex(page: Page, value: 'female' | 'male') {
  const select = page.locator('#register-sex');
  if ((await select.evaluate((el) => el.tagName)) === 'SELECT') {
    await select.selectOption(value);
  } else {
    await select.click();
    await page.locator(`[role="option"][data-value="${value}"]`).click();
  }
}

/** The stages after a provider sign-in of a fresh account: phone, terms (the e-mail is proven). */
async function finishStages(page: Page, request: APIRequestContext, e164: string) {
  // Wait on what the page shows, not on its address: the SPA passes through "/" before it routes
  // to a pending stage.
  const phone = page.getByTestId('verify-phone-send');
  const cgu = page.locator('#cgu-accept');
  const menu = page.getByTestId('user-menu');
  await expect(phone.or(cgu).or(menu)).toBeVisible();
  if (await phone.isVisible()) {
    const since = await serverNow(request);
    await phone.click();
    await enterCode(page, await codeFor(request, e164, since));
    await page.getByTestId('verify-phone-submit').click();
    await expect(cgu.or(menu)).toBeVisible();
  }
  if (await cgu.isVisible()) {
    await cgu.check();
    await page.getByTestId('cgu-submit').click();
  }
  await expect(menu).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

test('the choice screen offers each provider beside its kind of account, accessible in both brands and in Arabic, by keyboard', async ({
  page,
}) => {
  await page.goto('/security/register');
  const patient = page.getByRole('region', { name: 'Je suis patient' });
  const professional = page.getByRole('region', { name: 'Je suis professionnel de santé' });
  await expect(patient.getByTestId('idp-franceconnect')).toHaveText(
    'S’identifier avec FranceConnect',
  );
  await expect(
    patient.getByRole('link', { name: 'Qu’est-ce que FranceConnect ?' }),
  ).toHaveAttribute('target', '_blank');
  await expect(professional.getByTestId('idp-psc')).toHaveText(
    'Se connecter avec Pro Santé Connect',
  );
  await expect(patient.getByTestId('idp-psc')).toHaveCount(0);
  await expect(professional.getByTestId('idp-franceconnect')).toHaveCount(0);
  // The FranceConnect logo is served (the vendored DSFR artwork).
  const logo = await page.request.get('/providers/franceconnect.svg');
  expect(logo.status()).toBe(200);
  expect(await logo.text()).toContain('<svg');
  await expectAccessible(page, 'register choice with providers (fr, hygie)');

  await page.goto('/security/register?branding=telecare');
  await expect(page.getByTestId('idp-psc')).toBeVisible();
  await expectAccessible(page, 'register choice with providers (fr, telecare)');

  await useLanguage(page, 'ar');
  await page.goto('/security/register?branding=telecare');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('idp-franceconnect')).toHaveText('تسجيل الدخول عبر FranceConnect');
  await expect(page.getByTestId('idp-psc')).toHaveText('تسجيل الدخول عبر Pro Santé Connect');
  await expectAccessible(page, 'register choice with providers (ar, telecare)');

  // Keyboard: Tab reaches Pro Santé Connect's button, its focus ring shows, Enter starts it.
  await tabTo(page, 'idp-psc');
  const outline = await page
    .getByTestId('idp-psc')
    .evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).toBe('solid');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`^${MOCK.psc}/interaction/`));
});

test('an unknown professional registers from Pro Santé Connect: pre-filled, active at once, then signs in with it alone', async ({
  page,
  request,
}) => {
  const rpps = '10003160529';
  const sub = 'psc-registration-lucie-fabre';
  const person = {
    email: 'dr.fabre.psc@hygie.test',
    password: 'Granit-Boreal-2026!',
    phone: '06 12 34 50 11',
    e164: '+33612345011',
  };
  await mockAccount('psc', sub, {
    SubjectNameID: `8${rpps}`,
    preferred_username: `8${rpps}`,
    given_name: 'Lucie',
    family_name: 'Fabre',
    SubjectOrganization: 'CABINET FABRE',
    SubjectRefPro: {
      codeCivilite: 'MME',
      exercices: [
        {
          codeProfession: '10',
          codeCategorieProfession: 'C',
          codeCiviliteDexercice: 'DR',
          nomDexercice: 'Fabre',
          prenomDexercice: 'Lucie',
          codeTypeSavoirFaire: 'S',
          codeSavoirFaire: 'SM54',
          activities: [{ codeModeExercice: 'L', codeSecteurDactivite: 'SA07' }],
        },
      ],
    },
  });

  // From the choice screen, by keyboard, to the provider and back.
  await page.goto('/security/register');
  await tabTo(page, 'idp-psc');
  await page.keyboard.press('Enter');
  await signInAtProvider(page, 'psc', sub);

  // Straight into the professional registration, pre-filled with what PSC asserted.
  await expect(page).toHaveURL(/\/security\/register\/professional\?idp=psc$/);
  await expect(page.getByTestId('register-from-provider')).toContainText('Pro Santé Connect');
  for (const [id, value] of [
    ['#register-identifier', rpps],
    ['#register-last-name', 'Fabre'],
    ['#register-first-name', 'Lucie'],
    ['#register-job', 'Médecin'],
  ] as const) {
    await expect(page.locator(id)).toHaveValue(value);
    await expect(page.locator(id)).toHaveAttribute('readonly', '');
  }
  await expect(page.locator('#register-identifier-type')).toHaveValue(/^RPPS/);
  await expect(page.locator('#register-identifier-type')).toHaveAttribute('readonly', '');
  await expectAccessible(page, 'professional registration from PSC (fr)');

  // The rest is typed as usual.
  await page.locator('#register-email').fill(person.email);
  await page.locator('#register-password').fill(person.password);
  await page.locator('#register-password-confirmation').fill(person.password);
  await page.locator('#register-birth-date').fill('14/09/1979');
  await page.locator('#register-birth-place').fill('31555');
  await chooseSex(page, 'female');
  await page.locator('#register-phone').fill(person.phone);
  await page.locator('#register-cgu').check();
  const since = await serverNow(request);
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-success')).toBeVisible();
  // The provider asserted the RPPS: no validation wait to announce, and the account is active.
  await expect(page.getByTestId('register-success')).not.toContainText('vérifiée');
  await expectAccessible(page, 'registration success from PSC');
  const account = withDatabase((db) =>
    db
      .prepare(
        'select u.status, u.professional_id_type, l.provider from users u join identity_links l on l.user_id = u.id where u.email = ?',
      )
      .get(person.email),
  );
  expect(account).toEqual({ status: 'active', professional_id_type: 'RPPS', provider: 'psc' });

  // The e-mailed link proves the address.
  await codeFor(request, person.email, since);
  const verifyLink = await linkIn(request, person.email, 'verification_code');
  await page.goto(verifyLink.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByTestId('verify-email-submit').click();
  await expect(page.getByRole('link', { name: /connexion|connecter/i }).first()).toBeVisible();

  // Signed in again with Pro Santé Connect alone: eidas1 counts as both factors, no portal code.
  await page.goto('/security/login');
  await page.getByTestId('idp-psc').click();
  await signInAtProvider(page, 'psc', sub);
  await expect(page).not.toHaveURL(/\/security\/mfa/);
  await finishStages(page, request, person.e164);
  await expect(page.getByTestId('user-menu')).toBeVisible();
});

test('an unknown patient registers from FranceConnect with the INS traits pre-filled, in French and in Arabic', async ({
  page,
}) => {
  const sub = 'fc-registration-amelie-roussel';
  const person = {
    email: 'amelie.roussel.fc@hygie.test',
    password: 'Ecume-Falaise-2026!',
    phone: '06 12 34 50 12',
  };
  await mockAccount('franceconnect', sub, {
    given_name: 'Amélie Jeanne',
    family_name: 'ROUSSEL',
    birthdate: '1991-07-23',
    gender: 'female',
    birthplace: '44109',
    birthcountry: '99100',
    preferred_username: 'Roussel',
  });

  await page.goto('/security/register');
  await page
    .getByRole('region', { name: 'Je suis patient' })
    .getByTestId('idp-franceconnect')
    .click();
  await signInAtProvider(page, 'franceconnect', sub);

  await expect(page).toHaveURL(/\/security\/register\/patient\?idp=franceconnect$/);
  await expect(page.getByTestId('register-from-provider')).toContainText('FranceConnect');
  for (const [id, value] of [
    ['#register-last-name', 'ROUSSEL'],
    ['#register-first-name', 'Amélie Jeanne'],
    ['#register-birth-name', 'ROUSSEL'],
    ['#register-birth-date', '23/07/1991'],
    ['#register-birth-place', '44109'],
  ] as const) {
    await expect(page.locator(id)).toHaveValue(value);
    await expect(page.locator(id)).toHaveAttribute('readonly', '');
  }
  await expect(page.locator('#register-sex')).toHaveAttribute('readonly', '');
  await expect(page.locator('#register-sex')).toHaveValue('Féminin');
  // The used names and the INS stay the person's to type.
  await expect(page.locator('#register-last-name-used')).not.toHaveAttribute('readonly', '');
  await expectAccessible(page, 'patient registration from FranceConnect (fr)');

  // The same pending identity, read in Arabic.
  await useLanguage(page, 'ar');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('register-from-provider')).toContainText('FranceConnect');
  await expect(page.locator('#register-birth-date')).toHaveValue('23/07/1991');
  await expectAccessible(page, 'patient registration from FranceConnect (ar)');

  // Completed: the account is created and linked to the FranceConnect identity.
  await page.locator('#register-email').fill(person.email);
  await page.locator('#register-password').fill(person.password);
  await page.locator('#register-password-confirmation').fill(person.password);
  await page.locator('#register-phone').fill(person.phone);
  await page.locator('#register-cgu').check();
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-success')).toBeVisible();
  const account = withDatabase((db) =>
    db
      .prepare(
        'select u.status, u.profile, l.provider from users u join identity_links l on l.user_id = u.id where u.email = ?',
      )
      .get(person.email),
  );
  // (The INS traits themselves are sealed in the database: the profile shows them.)
  expect(account).toEqual({ status: 'active', profile: 'patient', provider: 'franceconnect' });
});
