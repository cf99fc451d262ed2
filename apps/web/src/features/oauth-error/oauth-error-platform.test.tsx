import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import OAuthErrorPage from './oauth-error-page';

const TELE = {
  'GET /api/platforms/by-client/tele-client': () =>
    json(200, { name: 'Téléconsultation', url: 'https://tele.example.fr/' }),
};

describe('oauth error page, the platform', () => {
  it('names the platform from the registry, by client id, and links back to it', async () => {
    await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=access_denied&client_id=tele-client',
      handlers: TELE,
    });
    expect((await screen.findByTestId('oauth-error-platform')).textContent).toBe(
      'Vous ne pouvez pas utiliser Téléconsultation.',
    );
    const back = screen.getByRole('link', { name: 'Retour à Téléconsultation' });
    expect(back.getAttribute('href')).toBe('https://tele.example.fr/');
    expect(screen.getByRole('link', { name: 'Retour à l’accueil' }).getAttribute('href')).toBe('/');
  });

  it('ignores a name and address written in its own address (anyone can forge them)', async () => {
    const { calls } = await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=access_denied&platform=Ameli&platform_url=https%3A%2F%2Fevil.example',
      language: 'en',
    });
    await screen.findByRole('heading', { level: 1, name: 'Access denied' });
    expect(screen.queryByTestId('oauth-error-platform')).toBeNull();
    expect(screen.queryByTestId('oauth-error-platform-link')).toBeNull();
    expect(calls.some((c) => c.url.pathname.includes('/platforms/'))).toBe(false);
  });

  it('says nothing of a platform the registry does not know', async () => {
    const { calls } = await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=access_denied&client_id=unknown',
      language: 'en',
    });
    await screen.findByRole('heading', { level: 1, name: 'Access denied' });
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/platforms/by-client/unknown')).toBe(true),
    );
    expect(screen.queryByTestId('oauth-error-platform')).toBeNull();
  });

  it('never links to an address that is not http(s), even a registered one', async () => {
    await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=access_denied&client_id=odd',
      language: 'en',
      handlers: {
        'GET /api/platforms/by-client/odd': () =>
          json(200, { name: 'Odd', url: 'javascript:alert(1)' }),
      },
    });
    expect((await screen.findByTestId('oauth-error-platform')).textContent).toBe(
      'You cannot use Odd.',
    );
    expect(screen.queryByTestId('oauth-error-platform-link')).toBeNull();
  });
});
