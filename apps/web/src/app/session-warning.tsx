import { useId } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentUserSchema } from '@hygie/domain';
import { ME_QUERY_KEY } from '../lib/current-user';
import { errorMessage } from '../lib/error-message';
import { logout } from '../lib/logout';
import { useServices } from '../lib/services';
import { MuiRoot } from '../lib/mui-root';

/** The session-warning dialog (session-timer.tsx shows it at the `warn` phase). */
function SessionWarningDialog({ secondsLeft }: { secondsLeft: number }) {
  const { t, i18n } = useTranslation();
  const { api, queryClient } = useServices();
  const titleId = useId();
  const textId = useId();

  const extend = useMutation({
    mutationFn: () => api.post('/session/extend', {}, currentUserSchema),
    onSuccess: (next) => queryClient.setQueryData(ME_QUERY_KEY, next),
  });

  return (
    <Dialog open aria-labelledby={titleId} aria-describedby={textId} data-testid="session-warning">
      <DialogTitle id={titleId}>{t('common:session.warningTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          {t('common:session.warning', { count: secondsLeft })}
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

export default function SessionWarning({ secondsLeft }: { secondsLeft: number }) {
  return (
    <MuiRoot>
      <SessionWarningDialog secondsLeft={secondsLeft} />
    </MuiRoot>
  );
}
