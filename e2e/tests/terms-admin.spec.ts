import { expect, test } from '@playwright/test';
import {
  ADMIN,
  expectAccessible,
  passSecondFactor,
  registerPatient,
  screenshot,
  signInAdmin,
  signInPatient,
  submitLogin,
} from './support.js';

// An admin publishes a new terms version from the admin screen; a person signing in next is asked
// to accept it, reads it, accepts it, and can read the version they accepted afterwards.

const stamp = Date.now().toString(36);
const PATIENT = {
  email: `cgu-${stamp}@example.fr`,
  password: 'Conditions-Lues-2026',
  phone: '06 44 55 88 01',
  e164: '+33644558801',
};
const VERSION = `E2E-${stamp}`;
const NEW_TITLE = `Objet du portail (${stamp})`;

test('a terms version published from the admin screen is accepted at the next sign-in and can be read again', async ({
  page,
  browser,
  request,
}) => {
  // A patient, signed up and through every stage once (the terms in force accepted at sign-up).
  await registerPatient(request, PATIENT);
  const patientContext = await browser.newContext({ locale: 'fr-FR' });
  const patient = await patientContext.newPage();
  await signInPatient(patient, request, PATIENT);

  // The admin publishes a new version, starting from the text in force.
  await signInAdmin(page, request);
  await page.goto('/app-settings?tab=terms');
  const inForce = page.getByTestId('terms-row').filter({ has: page.getByTestId('terms-in-force') });
  await expect(inForce).toHaveCount(1);
  const previous = await inForce.getAttribute('data-version');
  const firstTitle = page.locator('#terms-fr-0-title');
  await expect(firstTitle).toHaveValue(/.+/);
  await expectAccessible(page, 'admin terms fr');
  await page.locator('#terms-version').fill(VERSION);
  await firstTitle.fill(NEW_TITLE);
  await page.getByTestId('terms-tab-ar').click();
  await expect(page.locator('#terms-ar-0-title')).toHaveAttribute('dir', 'rtl');
  await page.getByTestId('terms-tab-fr').click();
  await page.getByTestId('terms-preview-toggle').click();
  await expect(page.getByTestId('terms-preview')).toContainText(`1. ${NEW_TITLE}`);
  await page.getByTestId('terms-submit').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(
    'Chaque utilisateur devra l’accepter à nouveau à sa prochaine connexion.',
  );
  await screenshot(page, 'terms-admin-confirm');
  await dialog.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('terms-published')).toBeVisible();
  const published = page.getByTestId('terms-row').first();
  await expect(published).toHaveAttribute('data-version', VERSION);
  await expect(published.getByTestId('terms-in-force')).toBeVisible();
  await expect(published).toContainText(ADMIN.email);
  await expect(page.getByTestId('terms-row').filter({ hasText: previous ?? '' })).toHaveCount(1);

  // The same version again is refused, the refusal shown translated.
  await page.locator('#terms-version').fill(VERSION);
  await page.getByTestId('terms-submit').click();
  await dialog.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('form-error')).toContainText(
    'Cette version des conditions existe déjà',
  );

  // The patient signs in again: the new version is to be read and accepted.
  await patientContext.clearCookies();
  await patient.goto('/security/login');
  await submitLogin(patient, 'fr', PATIENT.email, PATIENT.password);
  await expect(patient).toHaveURL(/\/security\/mfa/);
  await passSecondFactor(patient, request, PATIENT.email);
  await patient.getByTestId('mfa-submit').click();
  await expect(patient).toHaveURL(/\/security\/accept-cgu/);
  await expect(patient.getByRole('heading', { level: 2 })).toContainText(VERSION);
  await expect(patient.getByRole('heading', { level: 3, name: `1. ${NEW_TITLE}` })).toBeVisible();
  await expectAccessible(patient, 'accept new terms fr');
  await patient.locator('#cgu-accept').check();
  await patient.getByTestId('cgu-submit').click();
  await expect(patient).toHaveURL(/\/$/);

  // Afterwards, from the services page: the version accepted, as it was published.
  await patient.goto('/services');
  await expect(patient.getByTestId('terms-version')).toContainText(VERSION);
  await patient.getByTestId('terms-read').click();
  await expect(patient).toHaveURL(new RegExp(`/security/accept-cgu\\?version=${VERSION}$`));
  await expect(patient.getByRole('heading', { level: 3, name: `1. ${NEW_TITLE}` })).toBeVisible();
  await expect(patient.getByTestId('cgu-submit')).toHaveCount(0);
  await screenshot(patient, 'terms-accepted-read');
  // The server keeps which text was accepted: that version, its French text's hash.
  const text: unknown = await (
    await patient.request.get(`/api/cgu/versions/${VERSION}?l=fr`)
  ).json();
  const hash = typeof text === 'object' && text !== null ? Reflect.get(text, 'hash') : undefined;
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  const exported: unknown = await (await patient.request.get('/api/me/export')).json();
  expect(exported).toMatchObject({
    termsAccepted: expect.arrayContaining([
      expect.objectContaining({ version: VERSION, language: 'fr', textHash: hash }),
    ]),
  });
  await patientContext.close();
});
