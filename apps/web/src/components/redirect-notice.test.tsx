import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../test/a11y';
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
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const { router } = await renderScreenAt({
      also: NEXT_SCREENS,
      path: `${path}?redirect=%2Fdevices`,
    });
    await screen.findByTestId(testId);
    expect(screen.getByTestId('redirect-countdown').textContent).toBe(
      'Vous serez redirigé vers la page de connexion dans 5 secondes.',
    );
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

  /** The register success page, its countdown under fake timers and a keyboard user. */
  async function successPage(language: 'fr' | 'ar' = 'fr') {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const rendered = await renderScreenAt({
      also: NEXT_SCREENS,
      path: '/security/register/success',
      language,
    });
    await screen.findByTestId('register-success');
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    return { ...rendered, user };
  }

  it('announces the countdown politely once, not every second', async () => {
    await successPage();
    const status = screen.getByTestId('redirect-announcement');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    // Filled once the region is in the page, so that it is announced.
    await waitFor(() =>
      expect(status.textContent).toBe(
        'Vous serez redirigé vers la page de connexion dans 5 secondes.',
      ),
    );
    await act(() => vi.advanceTimersByTimeAsync(2100));
    // The visible text counts down; the announcement does not change.
    expect(screen.getByTestId('redirect-countdown').textContent).toBe(
      'Vous serez redirigé vers la page de connexion dans 3 secondes.',
    );
    expect(status.textContent).toBe(
      'Vous serez redirigé vers la page de connexion dans 5 secondes.',
    );
  });

  it('pauses from the keyboard: no redirect while paused, resumes where it stopped', async () => {
    const { router, user } = await successPage();
    await act(() => vi.advanceTimersByTimeAsync(2100));
    const pause = screen.getByRole('button', { name: 'Mettre en pause la redirection' });
    pause.focus();
    await user.keyboard('{Enter}');
    // The same button, still focused, now resumes.
    expect(document.activeElement).toBe(pause);
    expect(pause.textContent).toBe('Reprendre la redirection');
    expect(screen.getByTestId('redirect-announcement').textContent).toMatch(
      /^Redirection en pause/,
    );
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(router.state.location.pathname).toBe('/security/register/success');
    await user.keyboard(' ');
    expect(screen.getByTestId('redirect-countdown').textContent).toBe(
      'Vous serez redirigé vers la page de connexion dans 3 secondes.',
    );
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(router.state.location.pathname).toBe('/security/register/success');
    await act(() => vi.advanceTimersByTimeAsync(600));
    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
    expect(router.state.location.pathname).toBe('/security/login');
  });

  it('stays on the page when asked, focus on the link to go on', async () => {
    const { router, user } = await successPage();
    await user.click(screen.getByRole('button', { name: 'Rester sur cette page' }));
    expect(screen.getByTestId('redirect-countdown').textContent).toBe(
      'Redirection annulée : vous restez sur cette page.',
    );
    expect(screen.queryByRole('button', { name: /redirection/ })).toBeNull();
    const goNow = screen.getByRole('link', { name: 'Aller à la connexion maintenant' });
    expect(document.activeElement).toBe(goNow);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(router.state.location.pathname).toBe('/security/register/success');
    await user.click(goNow);
    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
  });

  it.each(['fr', 'ar'] as const)('passes axe running and paused in %s', async (language) => {
    const { user } = await successPage(language);
    await expectNoAxeViolations();
    await user.click(screen.getByTestId('redirect-pause'));
    expect(screen.getByTestId('redirect-notice').getAttribute('data-countdown')).toBe('paused');
    await expectNoAxeViolations();
  });
});
