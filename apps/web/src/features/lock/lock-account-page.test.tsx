import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountState } from '@hygie/domain';
import { ME_QUERY_KEY } from '../../lib/current-user';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreenAt } from '../../test/screens';
import AccountLockedPage from '../lock/account-locked-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/security/account-locked': AccountLockedPage };

const PATH = '/security/lock-account?email=marie.dupont%40example.fr&code=lock-token';

async function openLock(options: { lock?: FakeHandler; signedIn?: boolean; path?: string } = {}) {
  const rendered = await renderScreenAt({
    also: NEXT_SCREENS,
    path: options.path ?? PATH,
    user: options.signedIn ? makeUser() : null,
    handlers: {
      'POST /api/lock-account':
        options.lock ?? (() => json(200, { username: 'marie.dupont@example.fr' })),
    },
  });
  return { ...rendered, user: userEvent.setup() };
}

describe('lock account', () => {
  it('explains and asks for confirmation', async () => {
    const { calls } = await openLock();
    await screen.findByRole('heading', { level: 1, name: 'Verrouiller mon compte' });
    expect(
      screen.getByText('Plus personne ne pourra se connecter à votre compte, vous compris.'),
    ).toBeTruthy();
    expect(screen.getByTestId('lock-confirm').textContent).toBe('Verrouiller mon compte');
    expect(calls.some((call) => call.url.pathname === '/api/lock-account')).toBe(false);
  });

  it('locks, forgets the session and shows the locked page', async () => {
    const { user, calls, router, services } = await openLock({ signedIn: true });
    await user.click(await screen.findByTestId('lock-confirm'));
    const locked = await screen.findByTestId('account-locked');
    expect(router.state.location.pathname).toBe('/security/account-locked');
    expect(router.state.location.search).toBe('?username=marie.dupont%40example.fr');
    expect(locked.textContent).toContain(
      'Le compte \u2068marie.dupont@example.fr\u2069 est verrouillé.',
    );
    expect(calls.filter((c) => c.url.pathname === '/api/lock-account').map((c) => c.body)).toEqual([
      { email: 'marie.dupont@example.fr', code: 'lock-token' },
    ]);
    expect(services.accountState.get().state).toBe(AccountState.NOT_LOGGED_IN);
    expect(services.queryClient.getQueryData(ME_QUERY_KEY)).toBeNull();
    // Signed out: the footer offers the way back to login, not "sign out".
    expect(screen.getByRole('link', { name: 'Retour à la connexion' })).toBeTruthy();
  });

  it.each([
    ['an expired link', () => apiError(400, 'link_expired')],
    [
      'a refused link',
      () =>
        apiError(400, 'validation_error', {
          fields: [{ path: 'code', message: 'field_required' }],
        }),
    ],
  ])('explains %s', async (_name, lock) => {
    const { user } = await openLock({ lock });
    await user.click(await screen.findByTestId('lock-confirm'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Ce lien de verrouillage a expiré, a déjà été utilisé ou est incomplet.',
    );
    expect(screen.queryByTestId('lock-confirm')).toBeNull();
  });

  it('explains another failure and lets the user try again', async () => {
    const { user } = await openLock({ lock: () => apiError(503, 'service_unavailable') });
    await user.click(await screen.findByTestId('lock-confirm'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Le service est momentanément indisponible. Veuillez réessayer plus tard.',
    );
    expect(screen.getByTestId('lock-confirm')).toBeTruthy();
  });

  it('does not offer to lock with an incomplete link', async () => {
    await openLock({ path: '/security/lock-account?email=a%40b.fr' });
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Ce lien de verrouillage a expiré, a déjà été utilisé ou est incomplet.',
    );
    expect(screen.queryByTestId('lock-confirm')).toBeNull();
  });
});

describe('account locked', () => {
  it('shows the lock as a warning, not as a success with a green check', async () => {
    await renderScreenAt({
      also: NEXT_SCREENS,
      path: '/security/account-locked?username=marie.dupont%40example.fr',
    });
    const status = await screen.findByTestId('account-locked-status');
    expect(status.className).toContain('MuiAlert-colorWarning');
    expect(status.className).not.toContain('Success');
    expect(status.querySelector('[data-testid="SuccessOutlinedIcon"]')).toBeNull();
  });

  it('says how to get help, with the contact e-mail as a mailto link', async () => {
    await renderScreenAt({ also: NEXT_SCREENS, path: '/security/account-locked' });
    const locked = await screen.findByTestId('account-locked');
    expect(locked.textContent).toContain('Votre compte est verrouillé.');
    expect(locked.textContent).toContain('Vous avez été déconnecté de tous vos appareils');
    const mail = await screen.findByRole('link', { name: 'support@hygie.example' });
    expect(mail.getAttribute('href')).toBe('mailto:support@hygie.example');
  });
});
