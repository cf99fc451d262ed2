import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { browser } from '../lib/browser';
import { useSessionWarningSeconds } from '../lib/config';
import { useSession } from '../lib/current-user';
import { secondsLeft, sessionPhase } from '../lib/session-timer';
import { LOGIN_PATH } from './guard';

// The warning is a MUI dialog: loaded when it is to be shown, not with the first screens.
const SessionWarning = lazy(() => import('./session-warning'));

/** The current time, ticking every second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [active]);
  return now;
}

/** Where an expired session lands: the login page with the notice, then back here. */
export function expiredLoginUrl(current: { pathname: string; search: string }): string {
  const params = new URLSearchParams({ expired: '1' });
  const here = current.pathname + current.search;
  if (here !== '/') params.set('redirect', here);
  return `${LOGIN_PATH}?${params.toString()}`;
}

/** Warns before the session ends (spec §4) and sends the user to login once it has. */
export function SessionTimer() {
  const { user } = useSession();
  const warningSeconds = useSessionWarningSeconds();
  const expiresAt = user ? Date.parse(user.session.expiresAt) : Number.NaN;
  const now = useNow(Number.isFinite(expiresAt));
  const phase = user ? sessionPhase(now, expiresAt, warningSeconds) : 'ok';
  const location = useLocation();
  const expiredUrl = expiredLoginUrl(location);

  useEffect(() => {
    // A full navigation: the server has already dropped the session, start from a clean page.
    if (phase === 'expired') browser.assign(expiredUrl);
  }, [phase, expiredUrl]);

  if (phase !== 'warn') return null;
  return (
    <Suspense fallback={null}>
      <SessionWarning secondsLeft={secondsLeft(now, expiresAt)} />
    </Suspense>
  );
}
