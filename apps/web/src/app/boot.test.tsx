import { act, screen, waitFor } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language, PageRenderRequest } from '@hygie/domain';
import { boot } from './boot';
import { linkDrawnStylesheets } from './drawn-styles';
import { CONFIG, STYLESHEETS, TEMPLATE } from '../test/server-page';
import { renderPage } from './server-render';

// The browser's side of the pages the server draws: it takes over the server's HTML (hydrates it)
// when it would have drawn the same, without React finding any difference, else draws it again.

let container: HTMLElement;
let root: Root | undefined;
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
  let hydrated = false;
  await act(async () => {
    const started = await boot(container, {
      onRecoverableError: (error) => recovered.push(error),
    });
    root = started.root;
    hydrated = started.hydrated;
  });
  return hydrated;
}

beforeEach(() => {
  recovered.length = 0;
  logged.length = 0;
  // React reports the differences it finds while hydrating on the console.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => logged.push(args));
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.restoreAllMocks();
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

  it('draws the page again for the brand this browser’s session remembers', async () => {
    await receive();
    browserLanguage('fr');
    sessionStorage.setItem('branding', 'telecare');

    expect(await start()).toBe(false);

    await waitFor(() => expect(container.querySelector('[data-brand="telecare"]')).not.toBeNull());
    expect(container.querySelectorAll('[data-testid="app-root"]')).toHaveLength(1);
  });
});
