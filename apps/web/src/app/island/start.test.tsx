import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language, PageRenderRequest } from '@hygie/domain';
import { linkDrawnStylesheets } from '../drawn-styles';
import { renderPage } from '../server-render';
import { CONFIG, STYLESHEETS, TEMPLATE } from '../../test/server-page';
import { apiError, fakeFetch, json, type FakeHandler } from '../../test/fake-api';
import { makeUser } from '../../test/factories';
import { MFA_DATA, pendingMe } from '../../test/stages';
import { installBridge, NEWER_APP_UA, removeBridge, useUserAgent } from '../../test/biometrics';
import { matchRoutes } from 'react-router';
import { routes } from '../routes';
import { startIsland, type StartedIsland } from './start';

// The browser's side of the page the server draws, the login page's island: it takes over the
// server's HTML (hydrates it) when it would have drawn the same, without React finding any
// difference, else the whole client draws it again; the whole client takes the page over when
// the visitor leaves it (a link, a language, a sign-in).

let container: HTMLElement;
let started: StartedIsland | undefined;
const recovered: unknown[] = [];
const logged: unknown[][] = [];

/** The page the server draws for `request`, as the browser receives it, at its address. */
async function receive(request: Partial<PageRenderRequest> = {}): Promise<void> {
  const url = request.url ?? '/security/login';
  const html = await renderPage({
    url,
    hostname: 'localhost',
    language: 'fr',
    config: CONFIG,
    template: TEMPLATE,
    stylesheets: STYLESHEETS,
    ...request,
  });
  if (html === null) throw new Error('the page was not drawn');
  document.head.innerHTML = html.slice(
    html.indexOf('<head>') + '<head>'.length,
    html.indexOf('</head>'),
  );
  document.body.innerHTML = html.slice(
    html.indexOf('<body>') + '<body>'.length,
    html.indexOf('</body>'),
  );
  window.history.replaceState(null, '', url);
  const found = document.getElementById('root');
  if (!found) throw new Error('no root');
  container = found;
}

/** This browser's remembered language. */
function browserLanguage(language: Language): void {
  localStorage.setItem('lang', language);
}

async function start(): Promise<boolean> {
  await act(async () => {
    started = await startIsland(container, {
      onRecoverableError: (error) => recovered.push(error),
    });
  });
  return started?.hydrated ?? false;
}

/** The API as the whole client and the island's sign-ins call it. */
function api(handlers: Record<string, FakeHandler>) {
  const fake = fakeFetch(handlers);
  vi.stubGlobal('fetch', fake.fetch);
  return fake;
}

beforeEach(() => {
  recovered.length = 0;
  logged.length = 0;
  // React reports the differences it finds while hydrating on the console.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => logged.push(args));
});

afterEach(() => {
  act(() => started?.unmount());
  started = undefined;
  vi.unstubAllGlobals();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  removeBridge();
  Reflect.deleteProperty(window, 'PublicKeyCredential');
});

describe('taking over the page the server drew', () => {
  it.each(['fr', 'en', 'ar'] as const)(
    'takes over the login page in %s as drawn: same elements, no difference, usable after',
    async (language) => {
      await receive({ language });
      browserLanguage(language);
      const heading = screen.getByRole('heading', { level: 1 });
      const username = container.querySelector('#login-username');
      expect(container.querySelector('fieldset')?.disabled).toBe(true);

      expect(await start()).toBe(true);

      await waitFor(() => expect(container.querySelector('fieldset')?.disabled).toBe(false));
      // The server's elements are kept: taken over, not drawn again.
      expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
      expect(container.querySelector('#login-username')).toBe(username);
      expect(recovered).toEqual([]);
      expect(logged).toEqual([]);
    },
  );

  it('takes it over with the styles it carries: the built sheet linked once, its rules kept', async () => {
    await receive();
    browserLanguage('fr');
    const style = document.head.querySelector('style');
    const rules = style?.textContent;
    expect(rules).toContain('.hy-page-title');
    expect(document.head.querySelector('link[rel="stylesheet"]')).toBeNull();

    // As app/main.tsx: the sheet once the page is painted, then the client.
    linkDrawnStylesheets(document);
    expect(await start()).toBe(true);
    linkDrawnStylesheets(document);

    await waitFor(() => expect(container.querySelector('fieldset')?.disabled).toBe(false));
    const sheets = [...document.head.querySelectorAll('style, link[rel="stylesheet"]')];
    expect(sheets.map((sheet) => sheet.tagName)).toEqual(['LINK', 'STYLE']);
    expect(sheets[0]?.getAttribute('href')).toBe('/assets/index.css');
    expect(sheets[1]).toBe(style);
    expect(style?.textContent).toBe(rules);
    expect(logged).toEqual([]);
  });

  it('takes over a login page drawn with a hinted username: shown before, kept after', async () => {
    await receive({ url: '/security/login?username=jeanne.martin%40example.fr' });
    browserLanguage('fr');
    const username = container.querySelector<HTMLInputElement>('#login-username');
    expect(username?.value).toBe('jeanne.martin@example.fr');

    expect(await start()).toBe(true);

    await waitFor(() => expect(container.querySelector('fieldset')?.disabled).toBe(false));
    expect(container.querySelector('#login-username')).toBe(username);
    expect(username?.value).toBe('jeanne.martin@example.fr');
    expect(recovered).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('offers a passkey once taken over, where the browser has WebAuthn (the server cannot know)', async () => {
    await receive();
    browserLanguage('fr');
    expect(screen.queryByTestId('passkey-login')).toBeNull();
    Object.defineProperty(window, 'PublicKeyCredential', { value: class {}, configurable: true });

    expect(await start()).toBe(true);

    await screen.findByTestId('passkey-login');
    expect(recovered).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('draws the page again in the language this browser remembers, not the server’s', async () => {
    await receive({ language: 'en' });
    browserLanguage('fr');

    expect(await start()).toBe(false);

    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(recovered).toEqual([]);
  });

  it('leaves the page to the whole client inside the app, whose biometric sign-in it offers', async () => {
    await receive();
    browserLanguage('fr');
    localStorage.setItem('biometrics.keyId', 'key-1');
    useUserAgent(NEWER_APP_UA);
    installBridge();
    api({});

    expect(await start()).toBe(false);

    await screen.findByTestId('biometric-login');
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(recovered).toEqual([]);
  });

  it('draws the page again for the brand this browser’s session remembers', async () => {
    await receive();
    browserLanguage('fr');
    sessionStorage.setItem('branding', 'telecare');

    expect(await start()).toBe(false);

    await waitFor(() => expect(container.querySelector('[data-brand="telecare"]')).not.toBeNull());
    expect(container.querySelectorAll('[data-testid="app-root"]')).toHaveLength(1);
  });
});

describe('leaving the island for the whole client', () => {
  async function startedInFrench(request: Partial<PageRenderRequest> = {}) {
    await receive(request);
    browserLanguage('fr');
    expect(await start()).toBe(true);
    await waitFor(() => expect(container.querySelector('fieldset')?.disabled).toBe(false));
  }

  async function signInWith(password: string) {
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Adresse e-mail, téléphone/), 'marie.dupont@example.fr');
    await user.type(screen.getByLabelText(/^Mot de passe/), password);
    await user.click(screen.getByTestId('login-submit'));
  }

  it('follows a link in the whole client, at its address, without loading the page again', async () => {
    const { calls } = api({});
    await startedInFrench();
    const heading = screen.getByRole('heading', { level: 1, name: 'Connexion' });

    await userEvent.setup().click(screen.getByRole('link', { name: 'Créer un compte' }));

    await screen.findByRole('heading', { level: 1, name: 'Créer un compte' });
    expect(window.location.pathname).toBe('/security/register');
    expect(heading.isConnected).toBe(false);
    expect(container.querySelectorAll('[data-testid="app-root"]')).toHaveLength(1);
    // The visitor is known to be anonymous, as the server drew the page: nothing asked again.
    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual([]);
    expect(recovered).toEqual([]);
  });

  it('fetches what a linked page needs when its link is pointed at, before the click', async () => {
    api({});
    const register = matchRoutes(routes, '/security/register')?.at(-1)?.route;
    const lazy = register?.lazy;
    if (!register || typeof lazy !== 'function')
      throw new Error('the registration route is not lazy');
    const load = vi.fn(lazy);
    register.lazy = load;
    try {
      await startedInFrench();

      await userEvent.setup().hover(screen.getByRole('link', { name: 'Créer un compte' }));

      await waitFor(() => expect(load).toHaveBeenCalled());
      expect(window.location.pathname).toBe('/security/login');
    } finally {
      register.lazy = lazy;
    }
  });

  it('switches the language on the island, keeping what was typed; the whole client follows it', async () => {
    const { calls } = api({});
    await startedInFrench({ url: '/security/login?l=fr' });
    const user = userEvent.setup();
    const heading = screen.getByRole('heading', { level: 1 });
    await user.type(screen.getByLabelText(/^Adresse e-mail, téléphone/), 'marie.dupont@example.fr');

    await user.click(screen.getByTestId('language-switcher'));
    await user.click(screen.getByRole('menuitem', { name: 'English' }));

    await waitFor(() => expect(heading.textContent).toBe('Sign in'));
    expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(screen.getByLabelText<HTMLInputElement>(/^Email, phone/).value).toBe(
      'marie.dupont@example.fr',
    );
    // Then a link: the whole client draws in the language chosen, though the address says fr.
    await user.click(screen.getByRole('link', { name: 'Create an account' }));
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    expect(document.documentElement.lang).toBe('en');
    expect(calls).toEqual([]);
  });

  it('tells a refused sign-in on the island itself, as the whole client would', async () => {
    const { calls } = api({ 'POST /api/login': () => apiError(401, 'bad_credentials') });
    await startedInFrench();
    const heading = screen.getByRole('heading', { level: 1 });

    await signInWith('wrong-password');

    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Identifiants incorrects, vérifiez votre adresse e-mail et votre mot de passe',
    );
    expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
    expect(calls.map((call) => [call.method, call.url.pathname, call.body])).toEqual([
      ['POST', '/api/login', { username: 'marie.dupont@example.fr', password: 'wrong-password' }],
    ]);
    expect(screen.getByTestId('login-submit').hasAttribute('disabled')).toBe(false);
  });

  it('hands a signed-in visitor to the whole client, which goes on to the page asked for', async () => {
    const user = makeUser();
    api({
      'POST /api/login': () => json(200, user),
      'GET /api/me': () => json(200, user),
    });
    await startedInFrench({ url: '/security/login?redirect=%2Flegal-notice' });

    await signInWith('right-password');

    await waitFor(() => expect(window.location.pathname).toBe('/legal-notice'));
    expect(screen.queryByTestId('login-submit')).toBeNull();
  });

  it('hands a sign-in that needs its next step to the whole client, which shows the step', async () => {
    const { calls } = api({
      'POST /api/login': () => apiError(401, 'two_factor_authentication_required', { ...MFA_DATA }),
      'GET /api/me': pendingMe('two_factor_authentication_required', { ...MFA_DATA }),
      'GET /api/mfa': () => json(200, MFA_DATA),
    });
    await startedInFrench();

    await signInWith('right-password');

    await screen.findByRole('heading', { level: 1, name: 'Vérification en deux étapes' });
    expect(window.location.pathname).toBe('/security/mfa');
    // The whole client asks the server where the sign-in stands.
    expect(calls.some((call) => call.url.pathname === '/api/me')).toBe(true);
  });
});
