import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  expectAccessible,
  messageFor,
  registerPatient,
  signInPatient,
  submitLogin,
  withDatabase,
} from './support.js';

// "My data" (issue #15) in a real browser: a patient downloads everything the portal holds about
// them, then deletes their account; signing in again fails as for an unknown account, and the
// last e-mail was sent.

const stamp = Date.now();
const PATIENT = {
  email: `my-data-${stamp}@hygie.test`,
  password: 'Quiet-Meadow-71',
  phone: '06 44 55 66 21',
  e164: '+33644556621',
};

test('a patient downloads their data, then deletes their account', async ({ page, request }) => {
  await registerPatient(request, PATIENT);
  await signInPatient(page, request, PATIENT);
  const passwordHash: unknown = withDatabase((db) =>
    db.prepare('select password_hash from users where email = ?').pluck().get(PATIENT.email),
  );
  if (typeof passwordHash !== 'string' || passwordHash.length < 20) throw new Error('no hash');

  // The download: a JSON file with the person's data and no secret.
  await page.goto('/profile');
  await expect(page.getByTestId('my-data')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('my-data-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^hygie-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = fs.readFileSync(await download.path(), 'utf8');
  const data: unknown = JSON.parse(file);
  expect(data).toMatchObject({
    format: 'hygie-my-data/1',
    profile: { email: PATIENT.email, phone: PATIENT.e164, firstName: 'Camille' },
  });
  expect(file).toContain(PATIENT.email);
  expect(file).not.toContain(passwordHash);
  expect(file).not.toContain(PATIENT.password);

  // The deletion: what goes and what stays, the password, then the goodbye page.
  await page.getByTestId('delete-account-open').click();
  const dialog = page.getByTestId('delete-account-dialog');
  await expect(dialog).toContainText('journal de sécurité');
  await expectAccessible(page, 'delete-account-dialog');
  await page.locator('#delete-account-password').fill('Not-The-Passw0rd');
  await page.getByTestId('delete-account-confirm').click();
  await expect(dialog.getByTestId('form-error')).toContainText('mot de passe');
  await page.locator('#delete-account-password').fill(PATIENT.password);
  await page.getByTestId('delete-account-confirm').click();
  await expect(page).toHaveURL(/\/security\/goodbye$/);
  await expect(page.getByTestId('goodbye')).toBeVisible();
  await expectAccessible(page, 'goodbye');

  // Signed out: the signed-in area sends to the sign-in page, where the account no longer exists.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/security\/login/);
  await submitLogin(page, 'fr', PATIENT.email, PATIENT.password);
  await expect(page.getByTestId('login-error')).toContainText('Identifiants incorrects');

  // The last e-mail, at the address erased.
  const notice = await messageFor(request, PATIENT.email, 'account_changed');
  expect(notice.text).toContain('Vous avez supprimé votre compte');
  expect(
    withDatabase((db) => db.prepare('select id from users where email = ?').all(PATIENT.email)),
  ).toEqual([]);
});
