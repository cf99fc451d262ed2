import { expect, test, type Response } from '@playwright/test';
import { keepPointerOut } from './support';

// The login page's first load, in a real browser against the built server (issue #17): a budget
// on bytes, never on time. The JavaScript it fetches is counted as it travels (compressed), every
// script and style sheet comes compressed, and the hashed assets are cached for good.

/**
 * The JavaScript the login page may transfer on its first load, compressed. Issue #17's goal is
 * 100 kB; the login page's island (React and the login page's views, its translations; docs/web.md
 * "Performance") is about 77 kB on the wire: the budget holds what is reached, with a little
 * margin, and is lowered as the page gets lighter. The whole client comes at the first
 * interaction (server-drawn.spec.ts).
 */
const LOGIN_JS_BUDGET_BYTES = 81_000;
const IMMUTABLE = 'public, max-age=31536000, immutable';

test('the login page’s first load: JavaScript within budget, compressed, hashed assets immutable', async ({
  page,
}) => {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  // The first load before any interaction: not even the browser's resting pointer.
  await keepPointerOut(page);
  const document = await page.goto('/security/login');
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Drawn without MUI: its styling engine never ran (emotion inserts <style data-emotion>).
  expect(await page.locator('style[data-emotion]').count()).toBe(0);

  expect(document?.headers()['cache-control']).toBe('no-cache');
  expect(document?.headers()['content-encoding']).toBe('br');

  const typed = responses.filter((r) =>
    ['script', 'stylesheet'].includes(r.request().resourceType()),
  );
  const scripts = typed.filter((r) => r.request().resourceType() === 'script');
  expect(scripts.length).toBeGreaterThan(0);
  expect(typed.length).toBeGreaterThan(scripts.length);

  let transferred = 0;
  let decoded = 0;
  for (const response of scripts) {
    const sizes = await response.request().sizes();
    transferred += sizes.responseBodySize;
    decoded += (await response.body()).length;
  }
  // What travelled is the compressed copy: well under what the browser decoded.
  expect(transferred).toBeLessThan(decoded / 2);
  expect(transferred).toBeLessThanOrEqual(LOGIN_JS_BUDGET_BYTES);

  for (const response of typed) {
    const { pathname } = new URL(response.url());
    expect(response.status(), pathname).toBe(200);
    // Chromium asks for br first: every script and style sheet comes in brotli.
    expect(response.headers()['content-encoding'], pathname).toBe('br');
    expect(response.headers()['vary'], pathname).toMatch(/accept-encoding/i);
    expect(pathname, 'a hashed asset').toMatch(/^\/assets\/[\w.-]+-[\w-]{8}\.(js|css)$/);
    expect(response.headers()['cache-control'], pathname).toBe(IMMUTABLE);
  }

  // The preloaded fonts are hashed assets too.
  const fonts = responses.filter((r) => r.request().resourceType() === 'font');
  for (const response of fonts) {
    expect(response.headers()['cache-control'], response.url()).toBe(IMMUTABLE);
  }
});

test('a client that accepts only gzip gets gzip, one that accepts nothing gets the file as is', async ({
  page,
  request,
}) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(new URL(response.url()).pathname);
  });
  await page.goto('/security/login');
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
  const script = scripts[0];
  expect(script).toBeDefined();

  const gzip = await request.get(script ?? '', { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
  expect(gzip.headers()['content-type']).toMatch(/javascript/);
  const identity = await request.get(script ?? '', { headers: { 'accept-encoding': 'identity' } });
  expect(identity.headers()['content-encoding']).toBeUndefined();
  expect(identity.headers()['cache-control']).toBe(IMMUTABLE);
  // Both decode to the same script.
  expect((await gzip.body()).equals(await identity.body())).toBe(true);
});
