import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import DashboardPage from './dashboard-page';

describe('dashboard', () => {
  it('shows who I am and what needs my attention', async () => {
    await renderScreen(DashboardPage, {
      path: '/',
      user: makeUser(),
      handlers: {
        'GET /api/dashboard': () =>
          json(200, {
            attention: [
              { kind: 'phone_unverified' },
              { kind: 'password_expiring', at: '2025-04-10T12:00:00.000Z' },
            ],
            trustedDevices: 1,
            passwordExpiresAt: '2025-04-10T12:00:00.000Z',
          }),
      },
    });
    const items = await screen.findAllByTestId('attention-item');
    expect(items.map((item) => item.getAttribute('data-kind'))).toEqual([
      'phone_unverified',
      'password_expiring',
    ]);
    expect(items[0]?.textContent).toContain('Votre numéro de téléphone mobile n’est pas vérifié.');
    expect(items[1]?.textContent).toContain('Votre mot de passe expire le 10 avril 2025.');
    expect(screen.getByTestId('account-status').textContent).toBe('Actif');
    expect(screen.getByTestId('profile-type').textContent).toBe('Patient');
    const shortcuts = screen.getAllByRole('link', { name: /^Mes services Accédez/ });
    expect(shortcuts.map((link) => link.getAttribute('href'))).toEqual(['/services']);
  });

  it('says that new terms come at the next sign-in, without an action button', async () => {
    await renderScreen(DashboardPage, {
      path: '/',
      user: makeUser(),
      handlers: {
        'GET /api/dashboard': () =>
          json(200, {
            attention: [{ kind: 'terms_to_accept' }],
            trustedDevices: 0,
            passwordExpiresAt: null,
          }),
      },
    });
    const [item] = await screen.findAllByTestId('attention-item');
    expect(item?.getAttribute('data-kind')).toBe('terms_to_accept');
    expect(item?.textContent).toContain('elles vous seront présentées à votre prochaine connexion');
    expect(item?.querySelector('a, button')).toBeNull();
  });

  it('says when nothing needs attention, in English', async () => {
    await renderScreen(DashboardPage, {
      path: '/',
      user: makeUser(),
      language: 'en',
      handlers: {
        'GET /api/dashboard': () =>
          json(200, { attention: [], trustedDevices: 0, passwordExpiresAt: null }),
      },
    });
    expect((await screen.findByTestId('attention-none')).textContent).toBe(
      'Nothing to report: your account is up to date.',
    );
  });

  it('explains a dashboard that cannot be loaded', async () => {
    await renderScreen(DashboardPage, {
      path: '/',
      user: makeUser(),
      handlers: { 'GET /api/dashboard': () => apiError(403, 'forbidden') },
    });
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Vous n’avez pas l’autorisation d’effectuer cette action.',
    );
  });
});
