import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import Database from 'better-sqlite3';
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect } from '@playwright/test';
import { URI } from 'otpauth';

export const ADMIN = { email: 'admin@hygie.test', password: 'Correct-Horse-42' };
export const LANGUAGES = ['fr', 'en', 'ar'] as const;
export const BRANDS = ['hygie', 'telecare'] as const;
export const PRIMARY = { hygie: 'rgb(25, 118, 210)', telecare: 'rgb(19, 53, 77)' } as const;

const ARTEFACTS = path.resolve(import.meta.dirname, '..', '..', 'artefacts', 'screenshots');

declare global {
  interface Window {
    /** axe-core, once `expectAccessible` has loaded it into the document. */
    axe?: typeof axe;
  }
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Waits until the page has no request of its own in flight and none starts while it draws the last
 * answers (two frames and a task later: a mutation's answer invalidates a query, which fetches
 * again). The browser's record of the page's recent requests (`page.requests()`) includes those begun
 * before this call, so a request the test never watched is waited for too.
 */
async function settle(page: Page): Promise<void> {
  const answered = new WeakSet<Request>();
  for (;;) {
    const requests = await page.requests();
    const pending = requests.filter(
      (r) => !answered.has(r) && r.failure() === null && r.existingResponse() === null,
    );
    if (pending.length > 0) {
      // Settles with the answer's headers, or with null when the request fails or is cancelled.
      await Promise.all(
        pending.map(async (r) => {
          await r.response().catch(() => null);
          answered.add(r);
        }),
      );
      continue;
    }
    try {
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve)));
            // A page in the background draws no frames: a tenth of a second stands for them.
            setTimeout(resolve, 100);
          }),
      );
    } catch {
      // A navigation replaced the document meanwhile: wait for the new one, then look again.
      await page.waitForLoadState('load');
      continue;
    }
    const later = await page.requests();
    if (later.length === requests.length && later.at(-1) === requests.at(-1)) return;
  }
}

/** Loads axe-core into each of the page's documents that does not hold it yet (once per document). */
async function loadAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => typeof window.axe?.run === 'function'))) {
      await frame.evaluate(axe.source);
    }
  }
}

/** Runs axe-core (WCAG 2.1 A/AA) and fails on any serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Audit the settled page, not a control caught mid-request in its greyed "loading" state: no
  // request of the page in flight (waiting for `networkidle` instead cost 500 ms after each
  // navigation, and nothing after a click: that state is reached once per document).
  await settle(page);
  // …nor one caught mid-transition: the pointer, left on the last control clicked, tints it on
  // hover and its colours fade for a quarter of a second either way. Move it off every control and
  // let the finite animations end (a spinner's never does).
  await page.mouse.move(0, 0);
  // Until two frames go by with none running: what mounts late starts its own (the snackbar, whose
  // code loads with the first notification, grows in from transparent a few frames after the
  // answer that raised it, and was once audited half drawn).
  await page.evaluate(async () => {
    const frames = () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        setTimeout(resolve, 100);
      });
    for (let round = 0; round < 20; round++) {
      await frames();
      const running = document
        .getAnimations()
        .filter(
          (a) =>
            a.playState === 'running' &&
            Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity),
        );
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
  // axe.run in the page itself (what @axe-core/playwright's legacy mode ran, without its second
  // injection per audit and its blank page per audit for axe.finishRun): loaded once per document.
  await loadAxe(page);
  const results = await page.evaluate((tags) => {
    if (!window.axe) throw new Error('axe-core did not load');
    return window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
  }, AXE_TAGS);
  const blocking = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  const summary = blocking.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/** Saves a screenshot under artefacts/screenshots (not committed) for reviewers. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTEFACTS, `${name}.png`), fullPage: true });
}

/** Whether `value` is an object whose members `keys` all hold strings (a JSON answer read by a test). */
function hasStrings<K extends string>(
  value: unknown,
  keys: readonly K[],
): value is Record<K, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    keys.every((key) => typeof Reflect.get(value, key) === 'string')
  );
}

const OUTBOX_FIELDS = ['createdAt', 'template', 'channel', 'text', 'sms'] as const;
type OutboxMessage = Record<(typeof OUTBOX_FIELDS)[number], string>;

/** The dev outbox's messages to `to`, newest first. */
async function outboxMessages(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  const messages: unknown = await res.json();
  if (!Array.isArray(messages) || !messages.every((m) => hasStrings(m, OUTBOX_FIELDS))) {
    throw new Error(`unexpected dev outbox answer: ${JSON.stringify(messages)}`);
  }
  return messages;
}

/** The anti-forgery header for an unsafe API call, as the SPA echoes it from its cookie. */
export async function xsrfHeader(request: APIRequestContext): Promise<Record<string, string>> {
  let token = (await request.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!token) {
    await request.get('/api/health');
    token = (await request.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
  }
  return { 'x-xsrf-token': token ?? '' };
}

/**
 * The authenticator app's code for `secret` at `at` (the server's time, see serverNow), with the
 * RFC 6238 library and parameters the portal uses.
 */
export function totpCode(secret: string, at: number): string {
  return URI.parse(
    `otpauth://totp/Hygie:x?secret=${secret}&algorithm=SHA1&digits=6&period=30`,
  ).generate({ timestamp: at });
}

/**
 * The server's time. The suite's server runs on a clock the suite moves (HYGIE_TEST_CLOCK), so it
 * may be ahead of this machine's: whatever is compared with the server's stamps is read here.
 */
export async function serverNow(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/test/clock');
  expect(res.status(), await res.text()).toBe(200);
  const reading: unknown = await res.json();
  if (
    typeof reading !== 'object' ||
    reading === null ||
    !('now' in reading) ||
    typeof reading.now !== 'number'
  ) {
    throw new Error(`unexpected clock reading: ${JSON.stringify(reading)}`);
  }
  return reading.now;
}

/** Moves the server's time forward (cooldowns, expiries) instead of waiting for it. */
export async function advanceServerClock(
  request: APIRequestContext,
  seconds: number,
): Promise<void> {
  const res = await request.post('/api/test/clock', {
    headers: await xsrfHeader(request),
    data: { advanceSeconds: seconds },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The code of the newest message to `to` queued since `since` (server time), from the dev outbox. */
export async function codeFor(
  request: APIRequestContext,
  to: string,
  since: number,
): Promise<string> {
  // The message is queued with the code, but a screen may still be sending the request: poll a bit.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const messages = await outboxMessages(request, to);
    const fresh = messages.find((m) => Date.parse(m.createdAt) >= since);
    const match = fresh && /\b(\d{6})\b/.exec(fresh.channel === 'sms' ? fresh.sms : fresh.text);
    if (match?.[1]) return match[1];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${to} in the dev outbox`);
}

const TEN_MINUTES = 10 * 60;

/**
 * Asks for a second-factor code and types it. When the portal says to wait (a code went to this
 * account less than 60 s ago, e.g. at an earlier sign-in), the server's clock is moved past the
 * wait it announced and the code is asked for again from a fresh screen: nobody waits.
 */
export async function passSecondFactor(
  page: Page,
  request: APIRequestContext,
  to: string,
  provider: 'email' | 'sms' = 'email',
): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.getByTestId(`mfa-provider-${provider}`).check();
    const since = await serverNow(request);
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/mfa/send' && r.request().method() === 'POST',
    );
    await page.getByTestId('mfa-send').click();
    const response = await answered;
    if (response.ok()) {
      await enterCode(page, await codeFor(request, to, since));
      return;
    }
    const wait = Number(response.headers()['retry-after']);
    if (response.status() !== 429 || !(wait > 0)) {
      throw new Error(`second-factor code refused: ${response.status()} ${await response.text()}`);
    }
    // The wait may be the hourly cap's (up to an hour: an account signed in many times in one run),
    // longer than the pending sign-in's idle time-out: the clock moves in steps of ten minutes and
    // the page's session is used after each one, so the sign-in stays alive.
    for (let left = wait; left > 0; left -= TEN_MINUTES) {
      await advanceServerClock(request, Math.min(left, TEN_MINUTES));
      const alive = await page.request.get('/api/mfa');
      if (!alive.ok()) throw new Error(`the pending sign-in ended: ${alive.status()}`);
    }
    await page.reload();
  }
  throw new Error(`no second-factor code for ${to}`);
}

/** The newest message of a template to `to`, from the dev outbox. */
export async function messageFor(request: APIRequestContext, to: string, template: string) {
  const messages = await outboxMessages(request, to);
  const found = messages.find((m) => m.template === template);
  if (!found) throw new Error(`no ${template} message for ${to}`);
  return found;
}

/** Types a code into the six digit fields (as a paste, like a password manager or an SMS autofill). */
export async function enterCode(page: Page, code: string): Promise<void> {
  const first = page.getByTestId('code-input').locator('input').first();
  await first.focus();
  await page.evaluate((text) => {
    const target = document.activeElement;
    const data = new DataTransfer();
    data.setData('text/plain', text);
    target?.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, code);
  await expect(page.getByTestId('code-input').locator('input').last()).toHaveValue(code.slice(-1));
}

/** Chooses the interface language the way a user does: stored in localStorage `lang`. */
export async function useLanguage(page: Page, language: string): Promise<void> {
  await page.addInitScript((lang) => {
    if (!sessionStorage.getItem('e2e-lang-set')) {
      localStorage.setItem('lang', lang);
      sessionStorage.setItem('e2e-lang-set', '1');
    }
  }, language);
}

export const LOGIN_LABELS = {
  fr: {
    username: 'Adresse e-mail, téléphone, numéro de sécurité sociale (INS) ou RPPS',
    password: 'Mot de passe',
    submit: 'Se connecter',
  },
  en: {
    username: 'Email, phone, social security number (INS) or RPPS',
    password: 'Password',
    submit: 'Sign in',
  },
  ar: {
    username: 'البريد الإلكتروني أو الهاتف أو رقم الضمان الاجتماعي (INS) أو RPPS',
    password: 'كلمة المرور',
    submit: 'دخول',
  },
} as const;

/** Password step on the login page, in the page's language. */
export async function submitLogin(
  page: Page,
  language: keyof typeof LOGIN_LABELS,
  username: string,
  password: string,
) {
  const labels = LOGIN_LABELS[language];
  // The fields are found by their accessible names (which must be the translated labels).
  // The label names the INS in parentheses: matched as text, not as a pattern.
  const escaped = labels.username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page.locator('#login-username')).toHaveAccessibleName(new RegExp(`^${escaped}`));
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Runs an operator command of the built server against the suite's database. */
export function cli(...args: string[]): string {
  const root = path.resolve(import.meta.dirname, '..', '..');
  return execFileSync(process.execPath, [path.join(root, 'apps/server/dist/cli.js'), ...args], {
    env: {
      ...process.env,
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: `http://localhost:${process.env.E2E_PORT ?? 3210}`,
    },
    encoding: 'utf8',
  }).trim();
}

/** The link (first `http…` URL) in the newest message of a template to `to`. */
export async function linkIn(
  request: APIRequestContext,
  to: string,
  template: string,
): Promise<string> {
  const message = await messageFor(request, to, template);
  const url = /https?:\/\/\S+/.exec(message.text)?.[0];
  if (!url) throw new Error(`no link in ${template} to ${to}`);
  return url;
}

/** The terms in force as the sign-up screen shows them: what its ticked box names. */
export async function termsShown(
  request: APIRequestContext,
): Promise<{ cguVersion: string; cguHash: string }> {
  const res = await request.get('/api/cgu');
  const terms: unknown = await res.json();
  if (!hasStrings(terms, ['version', 'hash'])) {
    throw new Error(`unexpected terms answer: ${JSON.stringify(terms)}`);
  }
  return { cguVersion: terms.version, cguHash: terms.hash };
}

/** Creates an account through the API (registration), as the sign-up screen would. */
export async function registerPatient(
  request: APIRequestContext,
  person: { email: string; password: string; phone: string; firstName?: string; lastName?: string },
): Promise<void> {
  const res = await request.post('/api/register', {
    headers: await xsrfHeader(request),
    data: {
      type: 'patient',
      email: person.email,
      password: person.password,
      passwordConfirmation: person.password,
      acceptCgu: true,
      ...(await termsShown(request)),
      firstName: person.firstName ?? 'Camille',
      lastName: person.lastName ?? 'Lefebvre',
      birthDate: '02/03/1985',
      birthPlaceInsee: '69123',
      sex: 'female',
      phone: person.phone,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/**
 * Signs a freshly registered patient in through the screens: password, second factor by e-mail
 * (which also proves the address), SMS verification of the phone, terms if asked.
 */
export async function signInPatient(
  page: Page,
  request: APIRequestContext,
  person: { email: string; password: string; e164: string },
  options: { trustDevice?: boolean; language?: keyof typeof LOGIN_LABELS } = {},
): Promise<void> {
  await page.goto('/security/login');
  await submitLogin(page, options.language ?? 'fr', person.email, person.password);
  await expect(page).toHaveURL(/\/security\/mfa/);
  await passSecondFactor(page, request, person.email);
  if (options.trustDevice) await page.locator('#mfa-trust-device').check();
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/security\/(verify-mobile-phone|accept-cgu)|\/$/);
  if (/verify-mobile-phone/.test(page.url())) {
    const since = await serverNow(request);
    await page.getByTestId('verify-phone-send').click();
    await enterCode(page, await codeFor(request, person.e164, since));
    await page.getByTestId('verify-phone-submit').click();
  }
  await expect(page).toHaveURL(/\/security\/accept-cgu|\/$/);
  if (/accept-cgu/.test(page.url())) {
    await page.locator('#cgu-accept').check();
    await page.getByTestId('cgu-submit').click();
  }
  await expect(page).toHaveURL(/\/$/);
}

/** Direct access to the suite's SQLite database, for set-up a person could not do (age a password). */
export function withDatabase<T>(work: (db: Database.Database) => T): T {
  const db = new Database(path.join(process.env.E2E_DATA_DIR ?? '', 'hygie.sqlite'));
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** Signs the suite's admin in through the screens: password, second factor by e-mail, terms if asked. */
export async function signInAdmin(page: Page, request: APIRequestContext) {
  await page.goto('/security/login');
  await submitLogin(page, 'fr', ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/security\/mfa/);
  await passSecondFactor(page, request, ADMIN.email);
  await page.getByTestId('mfa-submit').click();
  await expect(page).toHaveURL(/\/security\/accept-cgu|\/$/);
  if (/accept-cgu/.test(page.url())) {
    await page.locator('#cgu-accept').check();
    await page.getByTestId('cgu-submit').click();
  }
  await expect(page).toHaveURL(/\/$/);
}

/**
 * Keeps the browser's own pointer out of the page until `letPointerIn`: Chromium reports a
 * trusted `pointerover` where its pointer rests (the top-left corner) as a page first draws,
 * before or after the login page's island listens for the first interaction, which fetches the
 * whole client (docs/web.md): a test of what loads before any interaction would count it about one
 * load in four. Stopped at the window, before the document's listeners.
 */
export async function keepPointerOut(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.addEventListener(
      'pointerover',
      (event) => {
        if (document.documentElement.dataset.pointerIn !== 'yes') event.stopImmediatePropagation();
      },
      { capture: true },
    );
  });
}

/** Lets pointer events reach the page again (after keepPointerOut), for a test's own hover. */
export async function letPointerIn(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.documentElement.dataset.pointerIn = 'yes';
  });
}

/**
 * Signs out through the account menu, from the keyboard: the menu grows in, and on a loaded
 * machine a click during its transition once pressed on one place and released on another, which
 * clicks no item (the pointer was left two items above "sign out" once the menu had grown).
 */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').press('Enter');
  await expect(page).toHaveURL(/\/security\/login/);
}
