import { expect, test } from '@playwright/test';
import {
  advanceServerClock,
  codeFor,
  enterCode,
  expectAccessible,
  registerPatient,
  serverNow,
  signInAdmin,
  signInPatient,
  submitLogin,
  withDatabase,
} from './support.js';

// The defects a new user hit (issue "Defects"), each checked in a real browser. In order: the
// patient of the first test is the one whose password expires in the second.
test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const PATIENT = {
  email: `defects-${stamp}@hygie.test`,
  password: 'Copper-Lantern-58',
  phone: '06 44 55 77 01',
  e164: '+33644557701',
};
const NUMBER_A = { typed: '06 44 55 77 02', e164: '+33644557702', shown: '06 44 55 77 02' };
const NUMBER_B = '06 44 55 77 03';

test('profile: a success gives way to the next error, and a number asked within the cooldown is kept and explained', async ({
  page,
  request,
}) => {
  await registerPatient(request, {
    email: PATIENT.email,
    password: PATIENT.password,
    phone: PATIENT.phone,
  });
  await signInPatient(page, request, PATIENT);
  await page.goto('/profile');

  // The phone changes to A once its SMS code is typed; "Modifié avec succès" says so.
  await page.getByTestId('profile-phone-change').click();
  await page.locator('#profile-phone-new').fill(NUMBER_A.typed);
  await page.locator('#profile-phone-password').fill(PATIENT.password);
  const since = await serverNow(request);
  await page.getByTestId('profile-phone-send').click();
  // D-UX: the code step puts the focus on its first digit.
  await expect(page.getByTestId('code-input').locator('input').first()).toBeFocused();
  await enterCode(page, await codeFor(request, NUMBER_A.e164, since));
  await page.getByTestId('profile-phone-verify').click();
  await expect(page.getByTestId('notification')).toContainText('Modifié avec succès');
  // D10: shown as people read it, not in E.164.
  await expect(page.getByText(NUMBER_A.shown, { exact: false }).first()).toBeVisible();
  await expect(page.getByText(NUMBER_A.e164)).toHaveCount(0);

  // D7: the next action fails — its error stands alone, the success is gone.
  await page.locator('#profile-current-password').fill('Wrong-Passw0rd-1');
  await page.locator('#profile-new-password').fill('Granite-Falcon-41');
  await page.locator('#profile-new-password-confirmation').fill('Granite-Falcon-41');
  await page.getByTestId('password-change-submit').click();
  await expect(page.getByTestId('form-error')).toBeVisible();
  await expect(page.getByTestId('notification')).toHaveCount(0);

  // D1: another number within a minute of the last code is not silently lost: the step stays,
  // the number typed stays, and the page says it was not changed and how long to wait.
  await page.getByTestId('profile-phone-change').click();
  await page.locator('#profile-phone-new').fill(NUMBER_B);
  await page.locator('#profile-phone-password').fill(PATIENT.password);
  await page.getByTestId('profile-phone-send').click();
  const refusal = page.getByTestId('form-error').filter({ hasText: 'n’a pas été modifié' });
  // The wait in words: "1 minute" when the click comes within the same second, else seconds.
  await expect(refusal).toContainText(/dans (\d+ secondes?|1 minute)\./);
  await expect(page.getByTestId('code-input')).toHaveCount(0);
  await expect(page.locator('#profile-phone-new')).toHaveValue(NUMBER_B);
  await expectAccessible(page, 'profile with a refused number');
  // Once the wait is over the same click sends the code to that number.
  await advanceServerClock(request, 61);
  const later = await serverNow(request);
  await page.getByTestId('profile-phone-send').click();
  await expect(page.getByTestId('code-input')).toBeVisible();
  expect(await codeFor(request, '+33644557703', later)).toMatch(/^\d{6}$/);
});

test('after a forced renewal of an expired password, the success page is shown, then the portal', async ({
  browser,
  request,
}) => {
  const admin = await browser.newContext({ locale: 'fr-FR' });
  const adminPage = await admin.newPage();
  await signInAdmin(adminPage, admin.request);
  await adminPage.goto('/app-settings');
  await adminPage.getByTestId('settings-tab').click();
  const row = adminPage.locator(
    '[data-testid="setting-row"][data-setting-key="PASSWORD_EXPIRATION_DELAY"]',
  );
  const disabled = row.getByTestId('setting-disable');
  if (await disabled.isChecked()) {
    await disabled.click();
    await expect(disabled).not.toBeChecked();
  }
  await row.getByTestId('setting-amount').fill('90');
  await row.getByTestId('setting-unit').selectOption('days');
  await row.getByTestId('setting-save').click();
  await expect(adminPage.getByTestId('notification')).toBeVisible();
  const hundredDaysAgo = (await serverNow(request)) - 100 * 24 * 3600_000;
  withDatabase((db) => {
    db.prepare('update users set password_changed_at = ? where email = ?').run(
      hundredDaysAgo,
      PATIENT.email,
    );
  });

  try {
    const user = await browser.newContext({ locale: 'fr-FR' });
    const page = await user.newPage();
    await page.goto('/security/login');
    await submitLogin(page, 'fr', PATIENT.email, PATIENT.password);
    await expect(page).toHaveURL(/\/security\/mfa/);
    // A code went to this account moments ago: move past the cooldown rather than wait.
    await advanceServerClock(request, 61);
    await page.getByTestId('mfa-provider-email').check();
    const since = await serverNow(request);
    await page.getByTestId('mfa-send').click();
    await expect(page.getByTestId('code-input').locator('input').first()).toBeFocused();
    await enterCode(page, await codeFor(request, PATIENT.email, since));
    await page.getByTestId('mfa-submit').click();
    await expect(page).toHaveURL(/\/security\/password-renewal/);
    await page.locator('#renewal-password').fill('Velvet-Orbit-27');
    await page.locator('#renewal-password-confirmation').fill('Velvet-Orbit-27');
    await page.getByTestId('renewal-submit').click();
    await expect(page).toHaveURL(/\/security\/password-renewal\/success/);
    await expect(page.getByTestId('renewal-success')).toContainText(
      'Votre mot de passe a été modifié',
    );
    await expectAccessible(page, 'password renewal success');
    // It moves on by itself, signed in.
    await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
    await expect(page.getByTestId('user-menu')).toBeVisible();
    PATIENT.password = 'Velvet-Orbit-27';
    await user.close();
  } finally {
    await row.getByTestId('setting-reset').click();
    await adminPage.getByTestId('confirm-yes').click();
    await expect(row.getByTestId('setting-disable')).toBeChecked();
    await admin.close();
  }
});

test('no passkey button on the portal reached by its IP address, one on its name', async ({
  page,
}) => {
  await page.goto('/security/login');
  await expect(page.getByTestId('passkey-login')).toBeVisible();
  await page.goto(`http://127.0.0.1:${process.env.E2E_PORT ?? ''}/security/login`);
  await expect(page.locator('#login-username')).toBeVisible();
  await expect(page.getByTestId('passkey-login')).toHaveCount(0);
});

test('the locked-account page is a warning, not a success', async ({ page }) => {
  await page.goto('/security/account-locked');
  const status = page.getByTestId('account-locked-status');
  await expect(status).toBeVisible();
  await expect(status).toHaveClass(/MuiAlert-colorWarning/);
  await expect(status.getByTestId('SuccessOutlinedIcon')).toHaveCount(0);
});
