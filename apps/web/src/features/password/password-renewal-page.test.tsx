import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountState } from '@hygie/domain';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import PasswordRenewalPage from './password-renewal-page';
import PasswordRenewalSuccessPage from './password-renewal-success-page';
import { pendingMe } from '../../test/stages';
import DashboardPage from '../dashboard/dashboard-page';
import AcceptCguPage from '../consent/accept-cgu-page';
import DevicesPage from '../devices/devices-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = {
  '/': DashboardPage,
  '/devices': DevicesPage,
  '/security/accept-cgu': AcceptCguPage,
  '/security/password-renewal/success': PasswordRenewalSuccessPage,
};

const PASSWORD = /^Nouveau mot de passe/;
const CONFIRMATION = /^Confirmer le mot de passe/;

async function openRenewal(code = 'password_expired', renew?: FakeHandler, path?: string) {
  const rendered = await renderScreen(PasswordRenewalPage, {
    also: NEXT_SCREENS,
    path: path ?? '/security/password-renewal',
    at: '/security/password-renewal',
    me: pendingMe(code),
    handlers: { 'POST /api/password/renew': renew ?? (() => json(200, makeUser())) },
  });
  return { ...rendered, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>, password = 'Nouveau2025x') {
  await user.type(await screen.findByLabelText(PASSWORD), password);
  await user.type(screen.getByLabelText(CONFIRMATION), password);
  await user.click(screen.getByTestId('renewal-submit'));
}

describe('password renewal', () => {
  it('explains an expired password', async () => {
    await openRenewal('password_expired');
    await screen.findByRole('heading', { level: 1, name: 'Renouvellement du mot de passe' });
    expect(screen.getByText(/^Votre mot de passe a expiré\./)).toBeTruthy();
    expect(document.getElementById('renewal-password')?.getAttribute('autocomplete')).toBe(
      'new-password',
    );
    expect(
      screen.getByText(
        'Au moins 9 caractères (ou 8 avec un caractère spécial), dont 1 chiffre, 1 minuscule et 1 majuscule.',
      ),
    ).toBeTruthy();
  });

  it('explains a password to create', async () => {
    await openRenewal('password_creation_required');
    await screen.findByRole('heading', { level: 1, name: 'Création du mot de passe' });
    expect(
      screen.getByText(/^Votre compte n’a pas encore de mot de passe personnel\./),
    ).toBeTruthy();
  });

  it('sends the new password, shows the success page signed in, then goes on to the requested page', async () => {
    const { user, calls, router, services } = await openRenewal(
      'password_expired',
      undefined,
      '/devices',
    );
    await fill(user);
    expect((await screen.findByTestId('renewal-success')).textContent).toBe(
      'Votre mot de passe a été modifié. Vous êtes connecté avec votre nouveau mot de passe.',
    );
    await screen.findByRole('heading', { level: 1, name: 'Mot de passe modifié' });
    expect(router.state.location.pathname).toBe('/security/password-renewal/success');
    expect(router.state.location.search).toBe('?redirect=%2Fdevices');
    expect(
      calls.filter((c) => c.url.pathname === '/api/password/renew').map((c) => c.body),
    ).toEqual([{ password: 'Nouveau2025x', passwordConfirmation: 'Nouveau2025x' }]);
    await user.click(screen.getByTestId('renewal-continue'));
    await screen.findByRole('heading', { level: 1, name: 'Mes appareils' });
    expect(router.state.location.pathname).toBe('/devices');
    expect(services.accountState.get().state).toBe(AccountState.LOGGED_IN);
  });

  it('moves on from the success page by itself, home when nothing was requested', async () => {
    const { user, router } = await openRenewal('password_creation_required');
    await fill(user);
    await screen.findByTestId('renewal-success');
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' }, { timeout: 7000 });
    expect(router.state.location.pathname).toBe('/');
  }, 10_000);

  it('checks the rule and the confirmation before calling the server', async () => {
    const { user, calls } = await openRenewal();
    await user.type(await screen.findByLabelText(PASSWORD), 'short');
    await user.type(screen.getByLabelText(CONFIRMATION), 'other');
    await user.click(screen.getByTestId('renewal-submit'));
    expect(
      await screen.findByText(
        'Le mot de passe doit contenir au moins 9 caractères (ou 8 avec un caractère spécial), dont 1 chiffre, 1 minuscule et 1 majuscule.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Les mots de passe ne correspondent pas.')).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === '/api/password/renew')).toBe(false);
  });

  it.each([
    ['password_must_differ', 'Le nouveau mot de passe doit être différent de l’ancien.'],
    ['password_too_common', 'Ce mot de passe est trop courant. Choisissez-en un autre.'],
  ])('shows %s on the password field', async (code, message) => {
    const { user } = await openRenewal('password_expired', () => apiError(400, code));
    await fill(user);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByLabelText(PASSWORD).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('shows a personal-information refusal on the password field', async () => {
    const { user } = await openRenewal('password_expired', () =>
      apiError(400, 'validation_error', {
        fields: [{ path: 'password', message: 'password_personal_info' }],
      }),
    );
    await fill(user);
    expect(
      await screen.findByText(
        'Le mot de passe ne doit contenir ni votre nom ni votre adresse e-mail.',
      ),
    ).toBeTruthy();
  });

  it('moves on to the next stage the server names', async () => {
    const { user, router } = await openRenewal('password_expired', () =>
      apiError(403, 'cgu_not_accepted'),
    );
    await fill(user);
    await screen.findByRole('heading', { level: 1, name: 'Conditions générales d’utilisation' });
    expect(router.state.location.pathname).toBe('/security/accept-cgu');
  });
});
