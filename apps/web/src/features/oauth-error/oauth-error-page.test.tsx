import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/factories';
import { renderScreen } from '../../test/render-screen';
import OAuthErrorPage from './oauth-error-page';

describe('oauth error page', () => {
  it('explains access_denied and links back home', async () => {
    await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=access_denied&error_description=Platform%20disabled',
    });
    await screen.findByRole('heading', { level: 1, name: 'Accès refusé' });
    expect(screen.getByTestId('oauth-error-explanation').textContent).toMatch(
      /^Vous n’avez pas accès à ce service\./,
    );
    expect(screen.getByTestId('oauth-error-details').textContent).toBe(
      'access_denied — Platform disabled',
    );
    expect(screen.getByRole('link', { name: 'Retour à l’accueil' }).getAttribute('href')).toBe('/');
    expect(document.title).toBe('Accès refusé · Hygie');
  });

  it('gives a generic explanation for other errors, also to signed-in users', async () => {
    await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=invalid_request',
      user: makeUser(),
      language: 'en',
    });
    await screen.findByRole('heading', { level: 1, name: 'Sign-in failed' });
    expect(screen.getByTestId('oauth-error-explanation').textContent).toBe(
      'The connection to the service could not be completed. Please try again later.',
    );
  });

  it('says the service is temporarily unavailable (the database was down), in Arabic too', async () => {
    await renderScreen(OAuthErrorPage, {
      path: '/oauth-error?error=temporarily_unavailable',
      language: 'ar',
    });
    await screen.findByRole('heading', { level: 1, name: 'الخدمة غير متاحة مؤقتًا' });
    expect(screen.getByTestId('oauth-error-explanation').textContent).toMatch(
      /^لا يمكن للخدمة تسجيل دخولك الآن\./,
    );
  });
});
