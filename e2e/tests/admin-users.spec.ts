import { expect, test } from '@playwright/test';
import {
  ADMIN,
  advanceServerClock,
  codeFor,
  enterCode,
  expectAccessible,
  messageFor,
  registerPatient,
  screenshot,
  serverNow,
  signInAdmin,
  signInPatient,
} from './support.js';

// An operator's action on one account, end to end (issue "operator's console").

const stamp = Date.now();

test('an admin locks a patient from their page after a second factor; the patient is out and told', async ({
  browser,
  request,
}) => {
  const person = {
    email: `locked-${stamp}@hygie.test`,
    password: 'Cobalt-River-58',
    phone: '06 44 55 66 07',
    e164: '+33644556607',
  };
  await registerPatient(request, person);
  const patient = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
  await signInPatient(patient, request, person);

  const admin = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
  await signInAdmin(admin, request);
  // The second factor the admin passed at sign-in is now older than five minutes.
  await advanceServerClock(request, 6 * 60);

  await admin.goto('/app-settings?tab=access');
  await admin.getByTestId('user-search').fill(person.email);
  const row = admin.locator(`[data-testid="user-row"][data-user-email="${person.email}"]`);
  await row.getByTestId('user-open').click();
  await expect(admin.getByTestId('user-facts')).toContainText('Actif');
  await expect(admin.getByTestId('user-session-row')).toHaveCount(1);

  await admin.getByTestId('user-action-lock').click();
  await admin.getByTestId('confirm-yes').click();
  await expect(admin.getByTestId('step-up-code')).toBeVisible();
  const since = await serverNow(request);
  await admin.getByTestId('step-up-send').click();
  await enterCode(admin, await codeFor(request, ADMIN.email, since));
  await expectAccessible(admin, 'user action, second factor');
  await screenshot(admin, 'user-step-up-fr-hygie');
  await admin.getByTestId('confirm-yes').click();
  await expect(admin.getByTestId('notification')).toContainText('est verrouillé');
  await expect(admin.getByTestId('user-facts')).toContainText('Verrouillé');
  await expect(admin.getByTestId('user-session-empty')).toBeVisible();

  // The patient's session is gone; the e-mail says whom to contact.
  await patient.reload();
  await expect(patient).toHaveURL(/\/security\/login/);
  expect((await messageFor(request, person.email, 'account_locked')).text).toContain('verrouillé');

  // Reopened without a step-up: unlocking cuts nobody's access.
  await admin.getByTestId('user-action-unlock').click();
  await admin.getByTestId('confirm-yes').click();
  await expect(admin.getByTestId('user-facts')).toContainText('Actif');
});
