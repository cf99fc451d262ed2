import { expect, test, type Page } from '@playwright/test';
import {
  expectAccessible,
  registerPatient,
  screenshot,
  signInPatient,
  useLanguage,
} from './support.js';

// The legal pages, the footer that leads to them, the pausable redirect notices and the folded
// menu of narrow screens, in a real browser.

const LEGAL_PAGES = [
  ['Mentions légales', '/legal-notice', 'Mentions légales'],
  ['Données personnelles', '/privacy', 'Protection des données personnelles'],
  ['Accessibilité : non conforme', '/accessibility', 'Déclaration d’accessibilité'],
  ['Contact', '/contact', 'Contact'],
] as const;

/** Whether the page scrolls sideways (WCAG 1.4.10 reflow: it must not at 320 px). */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
}

test('the footer’s links are reached with the keyboard from the sign-in page, and each page passes axe', async ({
  page,
}) => {
  for (const [link, path, title] of LEGAL_PAGES) {
    await page.goto('/security/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Connexion' })).toBeVisible();
    const footer = page.getByRole('contentinfo');
    const target = footer.getByRole('link', { name: link, exact: true });
    await expect(target).toBeVisible();
    // Tab from the top of the page until the link has the focus, then follow it with Enter.
    let reached = false;
    for (let presses = 0; presses < 40 && !reached; presses++) {
      await page.keyboard.press('Tab');
      reached = await target.evaluate((element) => element === document.activeElement);
    }
    expect(reached, `${link} is reached with Tab`).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expectAccessible(page, `${path} fr hygie`);
    await screenshot(page, `legal${path.replace('/', '-')}-fr-hygie`);
  }
});

test('the legal pages in Arabic with the TeleCare brand, right to left, pass axe', async ({
  page,
}) => {
  await useLanguage(page, 'ar');
  for (const [, path] of LEGAL_PAGES) {
    await page.goto(`${path}?branding=telecare`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toContainText('إمكانية الوصول: غير مطابق');
    await expectAccessible(page, `${path} ar telecare`);
    await screenshot(page, `legal${path.replace('/', '-')}-ar-telecare`);
  }
});

test('a redirect notice can be paused, resumed and left behind', async ({ page }) => {
  // The page's clock, moved by the test: the countdown's seconds pass without being waited for.
  await page.clock.install();
  await page.goto('/security/register/patient');
  await page.locator('#register-email').fill(`legal-${Date.now()}@hygie.test`);
  await page.locator('#register-password').fill('Sunny-Garden-42');
  await page.locator('#register-password-confirmation').fill('Sunny-Garden-42');
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
  // A metropolitan mobile: 06 followed by any eight digits could start with 9, an overseas
  // prefix (0690–0697) whose ranges do not all exist, and the form rightly refuses those.
  await page.locator('#register-phone').fill(`0612${String(Date.now()).slice(-6)}`);
  await page.locator('#register-cgu').check();
  // The server's answer, with its body when it refuses: what a failure here needs to be read.
  const [registered] = await Promise.all([
    page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/register' && r.request().method() === 'POST',
      { timeout: 15_000 },
    ),
    page.getByTestId('register-submit').click(),
  ]);
  expect(registered.status(), await registered.text()).toBe(201);
  await expect(page.getByTestId('register-success')).toBeVisible({ timeout: 15_000 });

  // Paused from the keyboard, the page stays well past the 5 seconds.
  const pause = page.getByRole('button', { name: 'Mettre en pause la redirection' });
  await pause.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('redirect-notice')).toHaveAttribute('data-countdown', 'paused');
  await expect(page.getByTestId('redirect-announcement')).toContainText('Redirection en pause');
  await expectAccessible(page, 'redirect notice paused');
  await page.clock.runFor(6500);
  await expect(page).toHaveURL(/\/security\/register\/success/);
  await expect(page.getByTestId('redirect-notice')).toHaveAttribute('data-countdown', 'paused');

  // Resumed, it moves on to the sign-in page within the seconds it had left (at most 5).
  await page.getByRole('button', { name: 'Reprendre la redirection' }).press('Enter');
  await page.clock.runFor(5000);
  await expect(page).toHaveURL(/\/security\/login/);
});

test('at 320 px the pages do not scroll sideways and the main menu opens', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const patient = {
    email: `legal-menu-${Date.now()}@hygie.test`,
    password: 'Sunny-Garden-42',
    phone: '06 55 44 33 22',
    e164: '+33655443322',
  };
  await page.goto('/security/login');
  expect(await scrollsSideways(page), 'login at 320 px').toBe(false);
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await scrollsSideways(page), 'privacy at 320 px').toBe(false);

  await registerPatient(request, patient);
  await signInPatient(page, request, patient);
  for (const language of ['fr', 'ar'] as const) {
    if (language === 'ar') {
      await page.evaluate(() => localStorage.setItem('lang', 'ar'));
      await page.goto('/?branding=telecare');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    }
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await scrollsSideways(page), `dashboard ${language} at 320 px`).toBe(false);
    const menu = page.getByTestId('main-menu-button');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(
      page.getByRole('navigation', { name: /Navigation principale|التنقل الرئيسي/ }),
    ).toBeHidden();
    await menu.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const nav = page.getByRole('navigation', { name: /Navigation principale|التنقل الرئيسي/ });
    await expect(nav).toBeVisible();
    expect(await scrollsSideways(page), `open menu ${language} at 320 px`).toBe(false);
    await expectAccessible(page, `main menu open ${language} at 320 px`);
    await screenshot(page, `main-menu-320-${language}`);
    // Following a link closes the menu.
    await nav.getByRole('link').nth(1).click();
    await expect(page).toHaveURL(/\/services/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(await scrollsSideways(page), `services ${language} at 320 px`).toBe(false);
    await page.goto('/');
  }
});
