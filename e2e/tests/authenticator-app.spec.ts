import { expect, test, type Page } from '@playwright/test';
import {
  enterCode,
  expectAccessible,
  registerPatient,
  serverNow,
  signInPatient,
  submitLogin,
  totpCode,
  useLanguage,
} from './support.js';

// The authenticator app (issue #20): enrolled in the account area from the key shown, then the
// second factor at sign-in; a code already accepted is refused. Codes are computed for the
// server's clock (the suite moves it), with the same RFC 6238 library the portal uses.

const stamp = Date.now();
const PATIENT = {
  email: `totp-${stamp}@hygie.test`,
  password: 'Quiet-Harbour-83',
  phone: '06 44 55 66 37',
  e164: '+33644556637',
};

async function keyShown(page: Page): Promise<string> {
  const text = (await page.getByTestId('totp-key').textContent()) ?? '';
  return text.replace(/\s+/g, '');
}

test('enrol an authenticator app, sign in with it, a replayed code refused', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  await registerPatient(request, PATIENT);
  await signInPatient(page, request, PATIENT);

  await page.goto('/devices');
  await page.getByTestId('totp-add').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('totp-qr')).toBeVisible();
  await expectAccessible(page, 'authenticator-app-enrolment');
  const secret = await keyShown(page);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await enterCode(page, totpCode(secret, await serverNow(request)));
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('totp-status')).toBeVisible();

  // Signed out, then in again: the app is offered first.
  await page.goto('/api/logout');
  await page.goto('/security/login');
  await submitLogin(page, 'fr', PATIENT.email, PATIENT.password);
  await expect(page).toHaveURL(/\/security\/mfa/);
  await expect(page.getByTestId('mfa-provider-totp')).toBeChecked();
  await expectAccessible(page, 'mfa-with-app');
  await page.getByTestId('mfa-send').click();
  // The code of the next step: the enrolment's own step is used already.
  const code = totpCode(secret, (await serverNow(request)) + 30_000);
  await enterCode(page, code);
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/$/);

  // The same code in another browser, in Arabic: refused, said in the language.
  const other = await browser.newContext(baseURL ? { baseURL } : {});
  const second = await other.newPage();
  await useLanguage(second, 'ar');
  await second.goto('/security/login');
  await submitLogin(second, 'ar', PATIENT.email, PATIENT.password);
  await expect(second).toHaveURL(/\/security\/mfa/);
  await expectAccessible(second, 'mfa-with-app-ar');
  await second.getByTestId('mfa-send').click();
  await enterCode(second, code);
  await second.getByTestId('mfa-submit').click();
  await expect(second.getByText('استُخدم هذا الرمز من قبل')).toBeVisible();
  await expect(second).toHaveURL(/\/security\/mfa/);
  await other.close();
});
