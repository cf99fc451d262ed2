import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Language } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { PUBLIC_CONFIG } from '../../test/factories';
import { json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import LoginPage from './login-page';

function renderLogin(path: string, providers: string[], language: Language = 'fr') {
  return renderScreen(LoginPage, {
    path,
    language,
    handlers: {
      'GET /api/config': () => json(200, { ...PUBLIC_CONFIG, identityProviders: providers }),
    },
  });
}

describe('sign-in with an identity provider', () => {
  it('shows no provider button when none is enabled', async () => {
    await renderLogin('/security/login', []);
    await screen.findByRole('button', { name: 'Se connecter' });
    expect(screen.queryByTestId('identity-providers')).toBeNull();
  });

  it('offers the enabled providers with their official wording, keeping the page asked for', async () => {
    await renderLogin('/security/login?redirect=%2Fdevices', ['psc', 'franceconnect']);
    const psc = await screen.findByRole('link', { name: 'Se connecter avec Pro Santé Connect' });
    expect(psc.getAttribute('href')).toBe('/api/idp/psc/start?target_uri=%2Fdevices');
    const fc = screen.getByRole('link', { name: 'S’identifier avec FranceConnect' });
    expect(fc.getAttribute('href')).toBe('/api/idp/franceconnect/start?target_uri=%2Fdevices');
    const about = screen.getByRole('link', { name: /Qu’est-ce que FranceConnect/ });
    expect(about.getAttribute('target')).toBe('_blank');
    expect(about.getAttribute('rel')).toContain('noopener');
  });

  it('reaches the buttons by keyboard after the password form', async () => {
    await renderLogin('/security/login', ['psc']);
    const psc = await screen.findByRole('link', { name: 'Se connecter avec Pro Santé Connect' });
    const user = userEvent.setup();
    for (let i = 0; i < 12 && document.activeElement !== psc; i++) await user.tab();
    expect(document.activeElement).toBe(psc);
  });

  it.each([
    ['not_linked', /n’est encore liée à aucun compte/],
    ['cancelled', /Connexion annulée/],
    ['refused', /n’a pas confirmé votre identité/],
    [
      'identity_provider_unavailable',
      /actuellement indisponible\. Réessayez dans quelques instants/,
    ],
    ['account_locked', /support@hygie\.example/],
  ])('says why the provider sign-in came back (%s)', async (code, text) => {
    await renderLogin(`/security/login?idp_error=${code}`, ['psc']);
    expect((await screen.findByTestId('idp-error')).textContent).toMatch(text);
    // The password sign-in is still offered, and the provider's button is the retry.
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Se connecter avec Pro Santé Connect' })).toBeTruthy();
  });

  it('ignores an idp_error it does not know', async () => {
    await renderLogin('/security/login?idp_error=%3Cscript%3E', ['psc']);
    await screen.findByRole('button', { name: 'Se connecter' });
    expect(screen.queryByTestId('idp-error')).toBeNull();
  });

  it.each([
    ['en', 'Sign in with Pro Santé Connect', 'Sign in with FranceConnect'],
    ['ar', 'تسجيل الدخول عبر Pro Santé Connect', 'تسجيل الدخول عبر FranceConnect'],
  ] as const)('is translated and accessible in %s', async (language, psc, fc) => {
    await renderLogin('/security/login?idp_error=not_linked', ['psc', 'franceconnect'], language);
    await screen.findByRole('link', { name: psc });
    expect(screen.getByRole('link', { name: fc })).toBeTruthy();
    await expectNoAxeViolations();
  });

  it('passes axe in French with the error shown', async () => {
    await renderLogin('/security/login?idp_error=cancelled', ['psc', 'franceconnect']);
    await screen.findByRole('link', { name: 'Se connecter avec Pro Santé Connect' });
    await expectNoAxeViolations();
  });
});
