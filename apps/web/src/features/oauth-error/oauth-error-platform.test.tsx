import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render-screen';
import OAuthErrorPage from './oauth-error-page';

describe('oauth error page, platform parameters', () => {
  it('names the platform and links back to it', async () => {
    await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=access_denied&platform=T%C3%A9l%C3%A9consultation&platform_url=https%3A%2F%2Ftele.example.fr%2F',
    });
    expect((await screen.findByTestId('oauth-error-platform')).textContent).toBe(
      'Vous ne pouvez pas utiliser Téléconsultation.',
    );
    const back = screen.getByRole('link', { name: 'Retour à Téléconsultation' });
    expect(back.getAttribute('href')).toBe('https://tele.example.fr/');
    expect(screen.getByRole('link', { name: 'Retour à l’accueil' }).getAttribute('href')).toBe('/');
  });

  it('never links to an address that is not http(s)', async () => {
    await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=access_denied&platform=Evil&platform_url=javascript%3Aalert(1)',
      language: 'en',
    });
    expect((await screen.findByTestId('oauth-error-platform')).textContent).toBe(
      'You cannot use Evil.',
    );
    expect(screen.queryByTestId('oauth-error-platform-link')).toBeNull();
  });
});
