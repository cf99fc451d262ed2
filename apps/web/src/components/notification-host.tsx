import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { NOTIFICATION_TIMEOUT_MS } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import type { Notifications } from '../lib/notifications';
import { useStore } from '../lib/store';

/** Shows the oldest pending notification; each hides itself after NOTIFICATION_TIMEOUT_MS. */
export function NotificationHost({ notifications }: { notifications: Notifications }) {
  const { t } = useTranslation();
  const queue = useStore(notifications.store);
  const current = queue[0];
  if (!current) return null;
  const close = () => notifications.dismiss(current.id);
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={NOTIFICATION_TIMEOUT_MS}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') close();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={current.severity}
        variant="standard"
        onClose={close}
        data-testid="notification"
        closeText={t('common:actions.close')}
        sx={{ width: '100%', boxShadow: 3 }}
      >
        {current.message}
      </Alert>
    </Snackbar>
  );
}
