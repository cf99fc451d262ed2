import { expect, test, type Browser } from '@playwright/test';
import {
  ADMIN,
  BRANDS,
  expectAccessible,
  keepPointerOut,
  LANGUAGES,
  letPointerIn,
  LOGIN_LABELS,
  PRIMARY,
  submitLogin,
} from './support';

// The login page is drawn by the server for a visitor without a session (docs/web.md, "Pages
// drawn by the server"): it shows before any script has run, in the browser's language, and the
// client takes it over without drawing it again.

const TITLES = { fr: 'Connexion', en: 'Sign in', ar: 'تسجيل الدخول' } as const;

/** A page whose client never runs: its scripts are not delivered (the page as first painted). */
async function withoutClient(browser: Browser, locale: string) {
  const context = await browser.newContext({ locale });
  await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
  return { context, page: await context.newPage() };
}

test.describe('before any script has run', () => {
  for (const language of LANGUAGES) {
    test(`the login page is there in ${language}, readable and accessible, its form waiting`, async ({
      browser,
    }) => {
      const { context, page } = await withoutClient(browser, language);
      await page.goto('/security/login');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLES[language]);
      await expect(page).toHaveTitle(`${TITLES[language]} · Hygie`);
      await expect(page.locator('#login-password')).toHaveAccessibleName(
        new RegExp(`^${LOGIN_LABELS[language].password}`),
      );
      // Nothing can be typed or sent before the client runs: a password never goes out in an address.
      await expect(page.locator('#login-username')).toBeDisabled();
      await expect(page.getByTestId('login-submit')).toBeDisabled();
      await expectAccessible(page, `login page drawn by the server (${language})`);
      await context.close();
    });
  }

  for (const language of LANGUAGES) {
    test(`the login page in ${language} carries its styles and its language's fonts only`, async ({
      browser,
    }) => {
      const { context, page } = await withoutClient(browser, language);
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      await page.goto('/security/login');
      // Styled without a style sheet to wait for: the rules are in the page.
      await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('font-size', '34px');
      await expect(page.getByTestId('login-submit')).toHaveCSS('border-radius', '4px');
      const families = await page.evaluate(() => {
        const names = new Set<string>();
        document.fonts.forEach((face) => names.add(face.family.replace(/"/g, '')));
        return [...names].sort();
      });
      expect(families).toEqual([language === 'ar' ? 'Noto Sans Arabic' : 'Roboto']);
      const fonts = requested.filter((file) => file.endsWith('.woff2'));
      expect(fonts.length).toBeGreaterThan(0);
      const script = language === 'ar' ? /^\/assets\/noto-sans-arabic-/ : /^\/assets\/roboto-/;
      for (const font of fonts) expect(font).toMatch(script);
      expect(requested.filter((file) => file.endsWith('.css'))).toEqual([]);
      // The island's translations are asked for with the page, its language's alone.
      const translations = requested.filter((file) => /\/assets\/locales-/.test(file));
      expect(translations).toHaveLength(1);
      expect(translations[0]).toMatch(new RegExp(`^/assets/locales-${language}-`));
      await context.close();
    });
  }

  for (const brand of BRANDS) {
    test(`the login page is drawn in the ${brand} brand the address names`, async ({ browser }) => {
      const { context, page } = await withoutClient(browser, 'fr');
      await page.goto(`/security/login?branding=${brand}`);
      await expect(page.getByTestId('app-root')).toHaveAttribute('data-brand', brand);
      await expect(page.getByRole('link', { name: 'Créer un compte' })).toHaveCSS(
        'color',
        PRIMARY[brand],
      );
      await expect(page.locator('img[data-brand-logo]')).toHaveAttribute('data-brand-logo', brand);
      await context.close();
    });
  }
});

test('the client takes the drawn page over: same elements, nothing reported, and one signs in', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    // The sign-in's stages answer 401 (docs/api.md): the browser logs those responses itself.
    if (message.text().startsWith('Failed to load resource')) return;
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  // Notes whether the server's heading is ever taken out of the page (drawn again).
  await page.addInitScript(() => {
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.removedNodes)) {
          if (
            node instanceof Element &&
            (node.id === 'page-title' || node.querySelector('#page-title'))
          ) {
            document.documentElement.dataset.redrawn = 'yes';
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const styleSheets: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') styleSheets.push(request.url());
  });
  await page.goto('/security/login');
  await expect(page.locator('#login-username')).toBeEnabled();
  await expect(page.locator('html')).not.toHaveAttribute('data-redrawn', 'yes');
  // The built style sheet (every language's fonts) is linked once, before the page's own rules,
  // which stay: the page looks the same.
  await expect(page.locator('head > link[rel="stylesheet"] + style')).toHaveCount(1);
  expect(styleSheets).toHaveLength(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('font-size', '34px');

  await submitLogin(page, 'fr', ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/security\/mfa/);
  expect(problems).toEqual([]);
});

test('the drawn page switched to Arabic has the Arabic fonts, from the client’s style sheet', async ({
  page,
}) => {
  await page.goto('/security/login');
  await expect(page.locator('#login-username')).toBeEnabled();
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLES.ar);
  await expect
    .poll(() =>
      page.evaluate(() => {
        let arabic = false;
        document.fonts.forEach((face) => {
          if (face.family.includes('Noto Sans Arabic') && face.status === 'loaded') arabic = true;
        });
        return arabic;
      }),
    )
    .toBe(true);
});

test('a browser that chose another language gets the page drawn again in it', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/security/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLES.en);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('#login-username')).toBeEnabled();
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
});

test('the island fetches the whole client at the first interaction, which a link then opens in place', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await keepPointerOut(page);
  await page.goto('/security/login');
  await expect(page.locator('#login-username')).toBeEnabled();
  await page.waitForLoadState('networkidle');
  // The island alone: React and the login page's views, not the whole client's first chunk.
  expect(scripts.some((script) => /\/assets\/island-/.test(script))).toBe(true);
  expect(scripts.filter((script) => /\/assets\/first-/.test(script))).toEqual([]);
  await page.evaluate(() => {
    document.documentElement.dataset.sameDocument = 'yes';
  });

  await letPointerIn(page);
  await page.locator('#login-username').hover();
  await expect.poll(() => scripts.some((script) => /\/assets\/first-/.test(script))).toBe(true);

  await page.getByRole('link', { name: 'Créer un compte' }).click();
  await expect(page).toHaveURL(/\/security\/register$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Créer un compte');
  // Opened by the whole client in the same document, not loaded again.
  await expect(page.locator('html')).toHaveAttribute('data-same-document', 'yes');
  await expectAccessible(page, 'registration choice opened from the island');
});
