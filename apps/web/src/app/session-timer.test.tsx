import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../lib/browser';
import { makeUser } from '../test/factories';
import { json } from '../test/fake-api';
import { renderScreenAt } from '../test/screens';
import { expiredLoginUrl } from './session-timer';

function userExpiringIn(seconds: number) {
  const user = makeUser();
  return {
    ...user,
    session: { ...user.session, expiresAt: new Date(Date.now() + seconds * 1000).toISOString() },
  };
}

describe('session timer', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('warns before expiry and extends the session on "stay signed in"', async () => {
    const { calls } = await renderScreenAt({
      path: '/',
      user: userExpiringIn(120),
      handlers: { 'POST /api/session/extend': () => json(200, userExpiringIn(3600)) },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Votre session va bientôt expirer' });
    expect(dialog.textContent).toMatch(/Votre session expire dans 1[12]\d secondes\./);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rester connecté' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const extend = calls.find((call) => call.url.pathname === '/api/session/extend');
    expect(extend?.method).toBe('POST');
  });

  it('offers to sign out from the warning', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderScreenAt({ path: '/', user: userExpiringIn(60) });
    await screen.findByRole('dialog');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Se déconnecter' }));
    expect(assign).toHaveBeenCalledWith('/api/logout');
  });

  it('does not warn while the session has time left', async () => {
    await renderScreenAt({ path: '/', user: userExpiringIn(3600) });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends the user to login with the expired notice once the session is over', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderScreenAt({ path: '/devices', user: userExpiringIn(30) });
    await screen.findByRole('dialog');
    expect(assign).not.toHaveBeenCalled();
    // The session's last seconds pass on the test clock, not the wall clock.
    await act(() => vi.advanceTimersByTimeAsync(31_000));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('/security/login?expired=1&redirect=%2Fdevices'),
    );
  });

  it('builds the expired-session address', () => {
    expect(expiredLoginUrl({ pathname: '/', search: '' })).toBe('/security/login?expired=1');
  });
});
