import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreenAt } from '../test/screens';
import LoginPage from '../features/auth/login-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/security/login': LoginPage };

describe('success pages', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['/security/register/success', 'register-success'],
    ['/security/forgot-password/success', 'forgot-success'],
    ['/security/password-renewal/success', 'renewal-success'],
  ])('%s moves on to login after 5 seconds, with a link to go now', async (path, testId) => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const { router } = await renderScreenAt({
      also: NEXT_SCREENS,
      path: `${path}?redirect=%2Fdevices`,
    });
    await screen.findByTestId(testId);
    expect(
      screen.getByText('Vous serez redirigé vers la page de connexion dans 5 secondes.'),
    ).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Aller à la connexion maintenant' }).getAttribute('href'),
    ).toBe('/security/login');
    await act(() => vi.advanceTimersByTimeAsync(4500));
    expect(router.state.location.pathname).toBe(path);
    await act(() => vi.advanceTimersByTimeAsync(600));
    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
    expect(router.state.location.pathname).toBe('/security/login');
    expect(router.state.location.search).toBe('?redirect=%2Fdevices');
  });
});
