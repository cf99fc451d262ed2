import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import {
  advanceServerClock,
  cli,
  expectAccessible,
  passSecondFactor,
  registerPatient,
  screenshot,
  serverNow,
  signInAdmin,
  signInPatient,
  submitLogin,
  useLanguage,
  withDatabase,
} from './support.js';

// The signed-in area and administration (issue "signed-in area"). Tests share accounts: in order.
test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const PATIENT = {
  email: `account-${stamp}@hygie.test`,
  password: 'Amber-Harbor-63',
  phone: '06 44 55 66 01',
  e164: '+33644556601',
};
const PLATFORM = `Téléconsultation ${stamp}`;

// Like a person who keeps using the same browser: the session and trusted-device cookies persist.
const PATIENT_STATE = path.join(os.tmpdir(), `hygie-e2e-patient-${stamp}.json`);
const ADMIN_STATE = path.join(os.tmpdir(), `hygie-e2e-admin-${stamp}.json`);

/** Opens the portal and tells whether the kept cookies still hold a session (the SPA asks /api/me first). */
async function alreadySignedIn(page: Page): Promise<boolean> {
  await page.goto('/');
  const menu = page.getByTestId('user-menu');
  const login = page.locator('#login-username');
  await expect(menu.or(login)).toBeVisible();
  return menu.isVisible();
}

async function patientPage(browser: Browser, request: APIRequestContext): Promise<Page> {
  const context = await browser.newContext({
    locale: 'fr-FR',
    ...(fs.existsSync(PATIENT_STATE) ? { storageState: PATIENT_STATE } : {}),
  });
  const page = await context.newPage();
  if (!(await alreadySignedIn(page))) await signInPatient(page, request, PATIENT);
  await expect(page).toHaveURL(/\/$/);
  await context.storageState({ path: PATIENT_STATE });
  return page;
}

async function adminPage(browser: Browser, request: APIRequestContext): Promise<Page> {
  const context = await browser.newContext({
    locale: 'fr-FR',
    ...(fs.existsSync(ADMIN_STATE) ? { storageState: ADMIN_STATE } : {}),
  });
  const page = await context.newPage();
  if (!(await alreadySignedIn(page))) await signInAdmin(page, request);
  await context.storageState({ path: ADMIN_STATE });
  return page;
}

test('every page of the signed-in area, in French and Arabic, passes axe (screenshots for review)', async ({
  page,
  request,
}) => {
  await registerPatient(request, PATIENT);
  await signInPatient(page, request, PATIENT, { trustDevice: true });
  await page.context().storageState({ path: PATIENT_STATE });
  for (const language of ['fr', 'ar'] as const) {
    if (language === 'ar') {
      await page.getByTestId('language-switcher').click();
      await page.getByRole('menuitem', { name: 'العربية' }).click();
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    }
    for (const [name, path] of [
      ['dashboard', '/'],
      ['profile', '/profile'],
      ['profile-update', '/profile/update'],
      ['devices', '/devices'],
      ['services', '/services'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page, `${name} ${language}`);
      await screenshot(page, `${name}-${language}-hygie`);
    }
  }
});

test('edits the profile: a validation error, then a success, in French and Arabic', async ({
  browser,
  request,
}) => {
  const page = await patientPage(browser, request);
  await page.goto('/profile');
  await page.getByTestId('profile-edit-link').click();
  await expect(page).toHaveURL(/\/profile\/update/);
  await page.locator('#profile-first-name').fill('');
  await page.getByTestId('profile-save').click();
  await expect(page.locator('#profile-first-name')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'profile update with error');
  await page.locator('#profile-first-name').fill('Camille-Anne');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('notification')).toContainText('Modifié avec succès');

  await useLanguage(page, 'ar');
  await page.evaluate(() => localStorage.setItem('lang', 'ar'));
  await page.goto('/profile/update');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.locator('#profile-birth-place').fill('96001');
  await page.getByTestId('profile-save').click();
  await expect(page.locator('#profile-birth-place')).toHaveAttribute('aria-invalid', 'true');
  await page.locator('#profile-birth-place').fill('13055');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('notification')).toContainText('تم التعديل بنجاح');
  await page.evaluate(() => localStorage.setItem('lang', 'fr'));
});

test('deletes a trusted device after confirming', async ({ browser, request }) => {
  const page = await patientPage(browser, request);
  await page.goto('/devices');
  const current = page.locator('[data-testid="device-row"][data-current="true"]');
  await expect(current).toHaveCount(1);
  const before = await page.getByTestId('device-row').count();
  await current.getByTestId('device-delete').click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await expectAccessible(page, 'devices confirm dialog');
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('device-row')).toHaveCount(before - 1);
  await page.getByTestId('devices-refresh').click();
  await expect(page.getByTestId('device-row')).toHaveCount(before - 1);
});

test('enables a platform on request, then opens it', async ({ browser, request, baseURL }) => {
  // The platform's address is served here (the portal itself), so the new tab really loads.
  const platformUrl = `${baseURL ?? ''}/?platform=${stamp}`;
  cli(
    'platform:add',
    '--name',
    PLATFORM,
    '--url',
    platformUrl,
    '--redirect-uri',
    'http://127.0.0.1:9/cb',
    '--policy',
    'on_request',
  );
  const page = await patientPage(browser, request);
  const context = page.context();
  await page.goto('/services');
  const card = page.locator(`[data-testid="service-card"][data-service-name="${PLATFORM}"]`);
  await expect(card.getByTestId('service-access')).toHaveCount(0);
  await card.getByTestId('service-enable').click();
  await expect(card.getByTestId('service-access')).toBeVisible();
  const opened = context.waitForEvent('page');
  await card.getByTestId('service-access').click();
  const tab = await opened;
  await tab.waitForLoadState();
  expect(tab.url()).toContain(`platform=${stamp}`);
  await tab.close();
  await page.getByTestId('support-open').click();
  await expect(page.getByTestId('support-dialog')).toBeVisible();
  await expect(page.getByTestId('support-dialog')).toContainText('support@hygie.local');
  await expectAccessible(page, 'support dialog');
});

test('warns before the session expires, lets the user stay, then says it expired', async ({
  browser,
  request,
}) => {
  const page = await patientPage(browser, request);
  // Browser time is faked from here, set to the server's (the suite moves it); the page reloads so
  // its session timer runs on that clock.
  await page.clock.install({ time: await serverNow(request) });
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The session lasts 30 minutes idle: 26 minutes later the warning is on screen.
  await page.clock.fastForward('26:00');
  await expect(page.getByTestId('session-warning')).toBeVisible();
  await expectAccessible(page, 'session warning');
  const extended = page.waitForResponse(
    (r) => r.url().includes('/api/session/extend') && r.status() === 200,
  );
  await page
    .getByTestId('session-warning')
    .getByRole('button', { name: 'Rester connecté' })
    .click();
  await extended;
  // 31 idle minutes pass: on the server too (its clock is moved the same way), the session ends.
  await advanceServerClock(request, 31 * 60);
  await page.clock.fastForward('31:00');
  await page.clock.resume();
  await expect(page).toHaveURL(/\/security\/login\?expired=1/);
  await expect(page.getByTestId('session-expired')).toBeVisible();
});

test('an admin sets a password lifetime; a user with an older password is sent to renewal', async ({
  request,
  browser,
}) => {
  // This one password ages by hand: moving the clock 100 days would age the admin's too (and end
  // the admin's session this test still needs).
  const hundredDaysAgo = (await serverNow(request)) - 100 * 24 * 3600_000;
  withDatabase((db) => {
    db.prepare('update users set password_changed_at = ? where email = ?').run(
      hundredDaysAgo,
      PATIENT.email,
    );
  });
  const page = await adminPage(browser, request);
  await page.goto('/app-settings');
  await expectAccessible(page, 'app settings');
  await screenshot(page, 'app-settings-fr-hygie');
  await page.getByTestId('settings-tab').click();
  const row = page.locator(
    '[data-testid="setting-row"][data-setting-key="PASSWORD_EXPIRATION_DELAY"]',
  );
  const disabled = row.getByTestId('setting-disable');
  // Off by default: turning the switch off puts a lifetime in force (saved at once).
  if (await disabled.isChecked()) {
    await disabled.click();
    await expect(disabled).not.toBeChecked();
  }
  await row.getByTestId('setting-amount').fill('90');
  await row.getByTestId('setting-unit').selectOption('days');
  await row.getByTestId('setting-save').click();
  await expect(page.getByTestId('notification')).toBeVisible();

  const user = await browser.newContext({ locale: 'fr-FR' });
  const userPage = await user.newPage();
  await userPage.goto('/security/login');
  await submitLogin(userPage, 'fr', PATIENT.email, PATIENT.password);
  await passSecondFactor(userPage, user.request, PATIENT.email);
  await userPage.getByTestId('mfa-submit').click();
  await expect(userPage).toHaveURL(/\/security\/password-renewal/);
  await expectAccessible(userPage, 'password renewal');
  await userPage.locator('#renewal-password').fill('Velvet-Orbit-27');
  await userPage.locator('#renewal-password-confirmation').fill('Velvet-Orbit-27');
  await userPage.getByTestId('renewal-submit').click();
  // The success page says so, then moves on (at once with "Continuer maintenant").
  await expect(userPage.getByTestId('renewal-success')).toBeVisible();
  await userPage.getByTestId('renewal-continue').click();
  await expect(userPage).toHaveURL(/\/$/);
  PATIENT.password = 'Velvet-Orbit-27';
  await user.close();

  await row.getByTestId('setting-reset').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('notification')).toBeVisible();
  await expect(row.getByTestId('setting-disable')).toBeChecked();
});

test('an admin disables a user’s access to a platform and sees it in the table', async ({
  browser,
  request,
}) => {
  // Twelve audited and photographed pages besides the journey: three times the usual time-out.
  test.slow();
  const page = await adminPage(browser, request);
  await page.goto('/app-settings');
  await page.getByTestId('access-tab').click();
  await page.getByTestId('user-search').fill('nobody-with-this-name');
  await expect(page.getByTestId('no-user-found')).toBeVisible();
  await page.getByTestId('user-search').fill(PATIENT.email);
  const userRow = page.locator(`[data-testid="user-row"][data-user-email="${PATIENT.email}"]`);
  await expect(userRow).toBeVisible();
  await expectAccessible(page, 'platform access');
  // The user's detail page, reached from the row: accessible, with the patient's sessions.
  await userRow.getByTestId('user-open').click();
  await expect(page.getByTestId('user-facts')).toContainText(PATIENT.email);
  await expectAccessible(page, 'user detail');
  await screenshot(page, 'user-detail-fr-hygie');
  await page.goBack();
  await page.getByTestId('user-search').fill(PATIENT.email);
  await expect(userRow).toBeVisible();
  const toggle = userRow.locator(
    `[data-testid="platform-access-toggle"][data-platform-name="${PLATFORM}"]`,
  );
  // The patient enabled this platform earlier: access is on.
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await page.getByTestId('confirm-yes').click();
  await page.getByTestId('user-search').fill('');
  await page.getByTestId('user-search').fill(PATIENT.email);
  await expect(
    userRow.locator(`[data-testid="platform-access-toggle"][data-platform-name="${PLATFORM}"]`),
  ).not.toBeChecked();
  await screenshot(page, 'platform-access-fr-hygie');

  // Every administration tab, in French and in Arabic: accessible, and photographed for review.
  for (const language of ['fr', 'ar'] as const) {
    await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
    for (const tab of [
      'settings',
      'access',
      'accounts',
      'platforms',
      'messages',
      'audit',
    ] as const) {
      await page.goto('/app-settings');
      await page.getByTestId(`${tab}-tab`).click();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expectAccessible(page, `app-settings ${tab} ${language}`);
      await screenshot(page, `app-settings-${tab}-${language}-hygie`);
    }
  }
  await page.evaluate(() => localStorage.setItem('lang', 'fr'));

  // The platform registered with the CLI is listed in the admin area's platforms tab.
  await page.goto('/app-settings?tab=platforms');
  await expect(
    page.locator(`[data-testid="platform-row"][data-platform-name="${PLATFORM}"]`),
  ).toBeVisible();
});
