import { expect, test } from '@playwright/test';
import {
  passSecondFactor,
  ADMIN,
  BRANDS,
  expectAccessible,
  LANGUAGES,
  PRIMARY,
  screenshot,
  signOut,
  submitLogin,
  useLanguage,
} from './support.js';

const BRAND_NAMES = { hygie: 'Hygie', telecare: 'Hygie Télésoin' } as const;

for (const language of LANGUAGES) {
  for (const brand of BRANDS) {
    test(`login page in ${language}, ${brand} brand: language, direction, logo, colour, accessibility`, async ({
      page,
    }) => {
      await useLanguage(page, language);
      await page.goto(`/security/login?branding=${brand}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      await expect(page.getByTestId('app-root')).toHaveAttribute('data-brand', brand);
      await expect(
        page.getByRole('img', { name: BRAND_NAMES[brand], exact: true }).first(),
      ).toBeVisible();
      await expect(page.getByTestId('login-submit')).toHaveCSS('background-color', PRIMARY[brand]);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expectAccessible(page, `login ${language} ${brand}`);
      await screenshot(page, `login-${language}-${brand}`);
    });
  }
}

test('the telecare brand follows from the page address mentioning it', async ({
  page,
  baseURL,
}) => {
  // *.localhost resolves to this machine: a host name that mentions the brand.
  await page.goto(`${(baseURL ?? '').replace('localhost', 'telecare.localhost')}/security/login`);
  await expect(page.getByTestId('app-root')).toHaveAttribute('data-brand', 'telecare');
});

test('picks the language with the switcher and remembers it', async ({ page }) => {
  await page.goto('/security/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('ar');
});

test('an admin signs in with the second factor, sees the dashboard, stays signed in on reload, signs out', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/security\/login/);
  await submitLogin(page, 'fr', ADMIN.email, 'Wrong-Password-1');
  await expect(page.getByTestId('login-error')).toContainText('Identifiants incorrects');

  await submitLogin(page, 'fr', ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/security\/mfa/);
  await expectAccessible(page, 'mfa');
  await passSecondFactor(page, request, ADMIN.email);
  await page.getByTestId('mfa-submit').click();

  // The terms in force are asked for once (other specs may have had the admin accept them).
  await expect(page).toHaveURL(/\/security\/accept-cgu|\/$/);
  if (/accept-cgu/.test(page.url())) {
    await expectAccessible(page, 'accept-cgu');
    await page.locator('#cgu-accept').check();
    await page.getByTestId('cgu-submit').click();
  }

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible();
  await expectAccessible(page, 'dashboard');
  await screenshot(page, 'dashboard-fr-hygie');

  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu')).toBeVisible();

  // The admin sees the admin area in the navigation.
  await page.goto('/app-settings');
  await expect(page).toHaveURL(/\/app-settings/);
  await expect(page.getByTestId('setting-row').first()).toBeVisible();

  await signOut(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/security\/login/);
});

test('unknown paths lead home (and so to login when signed out)', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/security\/login/);
});

test('the oauth-error page explains an access refusal, accessibly, in Arabic', async ({ page }) => {
  await useLanguage(page, 'ar');
  await page.goto('/oauth-error?error=access_denied&error_description=x');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(
    page
      .getByRole('link')
      .filter({ has: page.locator('[href="/"]') })
      .or(page.locator('a[href="/"]'))
      .first(),
  ).toBeVisible();
  await expectAccessible(page, 'oauth-error ar');
  await screenshot(page, 'oauth-error-ar-hygie');
});

test('the server keeps its strict security headers on the SPA', async ({ request }) => {
  const res = await request.get('/security/login');
  expect(res.status()).toBe(200);
  const csp = res.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(await res.text()).not.toMatch(/<script>(?!\s*<\/script>)/);
});
