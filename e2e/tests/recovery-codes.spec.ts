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

// Recovery codes (issue #20): the first set comes with the authenticator app and is shown once;
// one of them signs in (in French) and says how many remain; the same code, in Arabic, is refused.

const stamp = Date.now();
const PATIENT = {
  email: `recovery-${stamp}@hygie.test`,
  password: 'Amber-Lantern-58',
  phone: '06 44 55 66 38',
  e164: '+33644556638',
};

/** From the sign-in page to the recovery code's field. */
async function toRecoveryCode(page: Page, language: 'fr' | 'ar') {
  await page.goto('/security/login');
  // Slow to load on a loaded machine right after a sign-out.
  await expect(page.locator('#login-username')).toBeVisible({ timeout: 30_000 });
  await submitLogin(page, language, PATIENT.email, PATIENT.password);
  await expect(page).toHaveURL(/\/security\/mfa/);
  await page.getByTestId('mfa-provider-recovery').check();
  await page.getByTestId('mfa-send').click();
  await expect(page.getByTestId('mfa-recovery-code')).toBeVisible();
}

test('the recovery codes shown with the authenticator app: one signs in once, then is refused', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  await registerPatient(request, PATIENT);
  await signInPatient(page, request, PATIENT);

  await page.goto('/devices');
  // The page loads several sections at once: slow on a loaded machine.
  await expect(page.getByTestId('recovery-codes-status')).toHaveText(
    'Vous n’avez pas encore de codes de secours.',
    { timeout: 30_000 },
  );
  await page.getByTestId('totp-add').click();
  await page.getByTestId('confirm-yes').click();
  const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s+/g, '');
  await enterCode(page, totpCode(secret, await serverNow(request)));
  await page.getByTestId('confirm-yes').click();

  // The first codes, shown once; the dialog closes once they are saved.
  const dialog = page.getByTestId('recovery-codes-dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  const codes = await dialog.getByTestId('recovery-codes-list').locator('li').allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  await expectAccessible(page, 'recovery-codes-shown');
  await expect(dialog.getByTestId('recovery-codes-done')).toBeDisabled();
  await dialog.getByLabel('J’ai enregistré mes codes de secours').check();
  await dialog.getByTestId('recovery-codes-done').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('recovery-codes-status')).toContainText(
    'Il vous reste 10 codes de secours',
  );
  await expectAccessible(page, 'recovery-codes-section');

  // Signed out, then in with a recovery code typed loosely: told how many remain.
  const code = codes[2] ?? '';
  await page.goto('/api/logout');
  await toRecoveryCode(page, 'fr');
  await expectAccessible(page, 'mfa-recovery-code');
  await page.getByTestId('mfa-recovery-code').fill(code.toLowerCase().replace(/-/g, ' '));
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('notification')).toContainText('Il vous reste 9 codes de secours.');
  await page.goto('/devices');
  await expect(page.getByTestId('recovery-codes-status')).toContainText(
    'Il vous reste 9 codes de secours',
    { timeout: 30_000 },
  );

  // The same code again, in another browser, in Arabic: refused, said in the language.
  await page.goto('/api/logout');
  const other = await browser.newContext(baseURL ? { baseURL } : {});
  const second = await other.newPage();
  await useLanguage(second, 'ar');
  await toRecoveryCode(second, 'ar');
  await expectAccessible(second, 'mfa-recovery-code-ar');
  await second.getByTestId('mfa-recovery-code').fill(code);
  await second.getByTestId('mfa-submit').click();
  await expect(second.getByText('استُخدم رمز الاسترداد هذا من قبل')).toBeVisible();
  await expect(second).toHaveURL(/\/security\/mfa/);
  await other.close();
});
