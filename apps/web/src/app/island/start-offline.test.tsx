import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { renderPage } from '../server-render';
import { CONFIG, STYLESHEETS, TEMPLATE } from '../../test/server-page';
import { browser } from '../../lib/browser';
import { startIsland, type StartedIsland } from './start';

// The whole client cannot be fetched (the network went away after the page came, or a new
// deployment replaced its files): the island says so when a sign-in needs it, and lets the form
// be sent again; a link is left to the browser.
vi.mock('./actions', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

let started: StartedIsland | undefined;

afterEach(() => {
  act(() => started?.unmount());
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

/** The login page as the server draws it, taken over by the island. */
async function islandStarted() {
  const html = await renderPage({
    url: '/security/login',
    hostname: 'localhost',
    language: 'fr',
    config: CONFIG,
    template: TEMPLATE,
    stylesheets: STYLESHEETS,
  });
  if (html === null) throw new Error('the page was not drawn');
  document.body.innerHTML = html.slice(html.indexOf('<body>') + 6, html.indexOf('</body>'));
  window.history.replaceState(null, '', '/security/login');
  localStorage.setItem('lang', 'fr');
  const container = document.getElementById('root');
  if (!container) throw new Error('no root');
  await act(async () => {
    started = await startIsland(container);
  });
  await waitFor(() => expect(container.querySelector('fieldset')?.disabled).toBe(false));
}

it('tells a sign-in that the network failed when the whole client cannot be fetched', async () => {
  await islandStarted();
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Adresse e-mail, téléphone/), 'marie.dupont@example.fr');
  await user.type(screen.getByLabelText(/^Mot de passe/), 'secret');
  await user.click(screen.getByTestId('login-submit'));

  expect((await screen.findByTestId('login-error')).textContent).toBe(
    'Impossible de joindre le serveur. Vérifiez votre connexion à Internet.',
  );
  expect(screen.getByTestId('login-submit').hasAttribute('disabled')).toBe(false);
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Connexion');
});

it('lets the browser open a link when the whole client cannot be fetched', async () => {
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
  await islandStarted();

  await userEvent.setup().click(screen.getByRole('link', { name: 'Créer un compte' }));

  await waitFor(() => expect(assign).toHaveBeenCalledWith('/security/register'));
  expect(window.location.pathname).toBe('/security/login');
});
