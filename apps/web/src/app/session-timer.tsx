import { useEffect, useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { currentUserSchema } from '@hygie/domain';
import { browser } from '../lib/browser';
import { useSessionWarningSeconds } from '../lib/config';
import { ME_QUERY_KEY, useSession } from '../lib/current-user';
import { errorMessage } from '../lib/error-message';
import { logout } from '../lib/logout';
import { useServices } from '../lib/services';
import { secondsLeft, sessionPhase } from '../lib/session-timer';
import { LOGIN_PATH } from './guard';

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
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const { api, queryClient } = useServices();
  const warningSeconds = useSessionWarningSeconds();
  const titleId = useId();
  const textId = useId();
  const expiresAt = user ? Date.parse(user.session.expiresAt) : Number.NaN;
  const now = useNow(Number.isFinite(expiresAt));
  const phase = user ? sessionPhase(now, expiresAt, warningSeconds) : 'ok';
  const location = useLocation();
  const expiredUrl = expiredLoginUrl(location);

  const extend = useMutation({
    mutationFn: () => api.post('/session/extend', {}, currentUserSchema),
    onSuccess: (next) => queryClient.setQueryData(ME_QUERY_KEY, next),
  });

  useEffect(() => {
    // A full navigation: the server has already dropped the session, start from a clean page.
    if (phase === 'expired') browser.assign(expiredUrl);
  }, [phase, expiredUrl]);

  return (
    <Dialog
      open={phase === 'warn'}
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid="session-warning"
    >
      <DialogTitle id={titleId}>{t('common:session.warningTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          {t('common:session.warning', { count: secondsLeft(now, expiresAt) })}
        </DialogContentText>
        {extend.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(i18n, extend.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => logout()}>{t('common:userMenu.signOut')}</Button>
        <Button
          variant="contained"
          autoFocus
          loading={extend.isPending}
          onClick={() => extend.mutate()}
        >
          {t('common:session.stay')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
