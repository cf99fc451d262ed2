import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  passSecondFactor,
  cli,
  codeFor,
  enterCode,
  expectAccessible,
  linkIn,
  screenshot,
  serverNow,
  signOut,
  submitLogin,
  useLanguage,
} from './support.js';

// One patient goes through the whole security area; the tests run in order and share them.
test.describe.configure({ mode: 'serial' });

const PATIENT = {
  email: `patient-${Date.now()}@hygie.test`,
  password: 'Sunny-Garden-42',
  newPassword: 'Quiet-River-73',
  phone: '06 12 34 56 78',
  e164: '+33612345678',
};

test('a patient signs up, verifies e-mail and phone, passes the second factor, accepts new terms', async ({
  page,
  request,
}) => {
  await page.goto('/security/login');
  await page.getByRole('link', { name: 'Créer un compte' }).click();
  await expect(page).toHaveURL(/\/security\/register$/);
  await expectAccessible(page, 'register choice');
  await page.getByTestId('register-patient').click();
  await expect(page).toHaveURL(/\/security\/register\/patient/);

  await page.locator('#register-email').fill(PATIENT.email);
  await page.locator('#register-password').fill(PATIENT.password);
  await page.locator('#register-password-confirmation').fill('Not-The-Same-1');
  await page.locator('#register-first-name').fill('Léa');
  await page.locator('#register-last-name').fill('Bernard');
  await page.locator('#register-birth-date').fill('17/05/1980');
  await page.locator('#register-birth-place').fill('75056');
  await page
    .locator('#register-sex')
    .selectOption?.('female')
    .catch(async () => {
      await page.locator('#register-sex').click();
      await page.getByRole('option').first().click();
    });
  await page.locator('#register-phone').fill(PATIENT.phone);
  await page.getByTestId('register-submit').click();
  // Confirmation differs and the terms are not ticked: the form says so and sends nothing.
  await expect(page.locator('#register-password-confirmation')).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expectAccessible(page, 'register patient with errors');
  await page.locator('#register-password-confirmation').fill(PATIENT.password);
  await page.locator('#register-cgu').check();
  const since = await serverNow(request);
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-success')).toBeVisible();
  await expectAccessible(page, 'register success');
  await screenshot(page, 'register-success-fr-hygie');

  // The e-mailed link opens the verification page with the address and code filled in.
  await codeFor(request, PATIENT.email, since);
  const verifyLink = await linkIn(request, PATIENT.email, 'verification_code');
  await page.goto(verifyLink.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.locator('#verify-email-email')).toHaveValue(PATIENT.email);
  await expectAccessible(page, 'verify email');
  await page.getByTestId('verify-email-submit').click();
  await expect(page.getByRole('link', { name: /connexion|connecter/i }).first()).toBeVisible();

  // New terms are published before this first sign-in: the patient must accept them.
  cli(
    'cgu:publish',
    '--version',
    '2026-11',
    '--date',
    '2026-11-21',
    '--file',
    path.resolve(import.meta.dirname, '..', 'fixtures', 'terms-2026-11.json'),
  );

  await page.goto('/security/login');
  await submitLogin(page, 'fr', PATIENT.email, PATIENT.password);
  await expect(page).toHaveURL(/\/security\/mfa/);
  await expect(page.getByTestId('mfa-provider-sms')).toBeDisabled();
  await passSecondFactor(page, request, PATIENT.email);
  await page.locator('#mfa-trust-device').check();
  await expectAccessible(page, 'mfa with code');
  await page.getByTestId('mfa-submit').click();

  await expect(page).toHaveURL(/\/security\/verify-mobile-phone/);
  await expectAccessible(page, 'verify phone');
  await expect(page.locator('#verify-phone-number')).toBeVisible();
  const smsSince = await serverNow(request);
  await page.getByTestId('verify-phone-send').click();
  await enterCode(page, await codeFor(request, PATIENT.e164, smsSince));
  await page.getByTestId('verify-phone-submit').click();

  await expect(page).toHaveURL(/\/security\/accept-cgu/);
  await expect(page.getByText('2026-11').first()).toBeVisible();
  // The text published with the version, from the server.
  await expect(page.getByRole('heading', { name: '1. Objet (novembre 2026)' })).toBeVisible();
  await expectAccessible(page, 'accept cgu');
  await page.locator('#cgu-accept').check();
  await page.getByTestId('cgu-submit').click();
  await expect(page).toHaveURL(/\/$/);
  await expectAccessible(page, 'dashboard patient');
  await screenshot(page, 'dashboard-patient-fr-hygie');
});

test('a trusted browser skips the second factor, another browser does not', async ({
  browser,
  request,
}) => {
  const trusted = await browser.newContext();
  const page = await trusted.newPage();
  await page.goto('/security/login');
  await submitLogin(page, 'fr', PATIENT.email, PATIENT.password);
  await passSecondFactor(page, request, PATIENT.email);
  await page.locator('#mfa-trust-device').check();
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/$/);

  await signOut(page);
  await submitLogin(page, 'fr', PATIENT.email, PATIENT.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu')).toBeVisible();

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto('/security/login');
  await submitLogin(otherPage, 'fr', PATIENT.email, PATIENT.password);
  await expect(otherPage).toHaveURL(/\/security\/mfa/);
  await trusted.close();
  await other.close();
});

test('forgot password by SMS, in Arabic and the telecare brand', async ({ page, request }) => {
  await useLanguage(page, 'ar');
  await page.goto('/security/login?branding=telecare');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('link', { name: 'هل نسيت كلمة المرور؟' }).click();
  await expect(page).toHaveURL(/\/security\/forgot-password/);
  await expect(page.getByTestId('app-root')).toHaveAttribute('data-brand', 'telecare');
  await expectAccessible(page, 'forgot password ar telecare');
  await page.locator('#forgot-username').fill(PATIENT.email);
  await page.getByTestId('forgot-channel-sms').check();
  const since = await serverNow(request);
  await page.getByTestId('forgot-send').click();
  await enterCode(page, await codeFor(request, PATIENT.e164, since));
  await expectAccessible(page, 'forgot password code ar telecare');
  await page.getByTestId('forgot-verify').click();
  await page.locator('#forgot-password').fill(PATIENT.newPassword);
  await page.locator('#forgot-password-confirmation').fill(PATIENT.newPassword);
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByTestId('forgot-success')).toBeVisible();
  await expectAccessible(page, 'forgot password success ar telecare');
  await screenshot(page, 'forgot-success-ar-telecare');

  // The reset revoked the trusted devices: the next sign-in asks for the second factor again.
  await page.goto('/security/login');
  await submitLogin(page, 'ar', PATIENT.email, PATIENT.newPassword);
  await expect(page).toHaveURL(/\/security\/mfa/);
  await expectAccessible(page, 'mfa ar telecare');
  await screenshot(page, 'mfa-ar-telecare');
});

test('an invited person creates a password from the first-login link, then signs in', async ({
  page,
  request,
}) => {
  const email = `invited-${Date.now()}@hygie.test`;
  const link = cli('invite', '--email', email, '--first-name', 'Inès');
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByText(email).first()).toBeVisible();
  await expectAccessible(page, 'first login');
  await page.locator('#first-login-password').fill('Bright-Meadow-58');
  await page.locator('#first-login-password-confirmation').fill('Bright-Meadow-58');
  await page.getByTestId('first-login-submit').click();
  await expect(page).toHaveURL(/\/security\/login/);
  await submitLogin(page, 'fr', email, 'Bright-Meadow-58');
  await passSecondFactor(page, request, email);
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/security\/accept-cgu/);
  await page.locator('#cgu-accept').check();
  await page.getByTestId('cgu-submit').click();
  await expect(page).toHaveURL(/\/$/);
});

test('the account owner locks the account from the sign-in notice link', async ({
  page,
  request,
}) => {
  const lockUrl = await linkIn(request, PATIENT.email, 'sign_in_notice');
  await page.goto(lockUrl.replace(/^https?:\/\/[^/]+/, ''));
  await expectAccessible(page, 'lock account');
  await page.getByTestId('lock-confirm').click();
  await expect(page).toHaveURL(/\/security\/account-locked/);
  await expect(page.getByTestId('account-locked')).toBeVisible();
  await expectAccessible(page, 'account locked');
  await screenshot(page, 'account-locked-fr-hygie');
  await page.goto('/security/login');
  await submitLogin(page, 'fr', PATIENT.email, PATIENT.newPassword);
  await expect(page.getByTestId('login-error')).toContainText('verrouillé');
});
