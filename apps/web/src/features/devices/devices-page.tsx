import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Refresh from '@mui/icons-material/Refresh';
import type { TrustedDevice } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { BiometricKeys } from '../../components/biometric-keys';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { useServices } from '../../lib/services';
import { useDeleteDevice } from './api/delete-device';
import { useDevices } from './api/devices';
import { AuthenticatorApp } from './authenticator-app';
import { IdentityLinks } from './identity-links';
import { RecoveryCodes } from './recovery-codes';

export default function DevicesPage() {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const devices = useDevices();
  const remove = useDeleteDevice();
  const [toDelete, setToDelete] = useState<TrustedDevice | null>(null);
  const date = (value: string) => formatDateTime(value, i18n.language);

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => notifications.notify(t('account:devices.deleted'), 'success'),
      onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
      onSettled: () => setToDelete(null),
    });
  };

  return (
    <Page title={t('account:devices.title')}>
      <Typography sx={{ mb: 2 }}>{t('account:devices.intro')}</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <Button
          variant="outlined"
          startIcon={<Refresh aria-hidden="true" />}
          onClick={() => void devices.refetch()}
          loading={devices.isFetching}
          data-testid="devices-refresh"
        >
          {t('account:devices.refresh')}
        </Button>
      </Box>
      {devices.isError && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {errorMessage(i18n, devices.error)}
        </Alert>
      )}
      {devices.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {devices.data && devices.data.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }} data-testid="devices-empty">
          <Typography>{t('account:devices.empty')}</Typography>
        </Paper>
      )}
      {devices.data && devices.data.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-labelledby="page-title">
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  {t('account:devices.device')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('account:devices.ip')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('account:devices.created')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('account:devices.lastUsed')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('account:devices.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {devices.data.map((device) => (
                <TableRow
                  key={device.id}
                  data-testid="device-row"
                  data-current={device.current ? 'true' : 'false'}
                >
                  <TableCell component="th" scope="row">
                    <bdi>{device.label}</bdi>
                    {device.current && (
                      <Chip
                        size="small"
                        color="primary"
                        label={t('account:devices.current')}
                        sx={{ ml: 1 }}
                      />
                    )}
                  </TableCell>
                  <TableCell>
                    <bdi>{device.ip ?? t('account:devices.unknownIp')}</bdi>
                  </TableCell>
                  <TableCell>{date(device.creationDate)}</TableCell>
                  <TableCell>{date(device.lastUsed)}</TableCell>
                  <TableCell>
                    <Button
                      color="error"
                      onClick={() => setToDelete(device)}
                      aria-label={t('account:devices.deleteNamed', {
                        device: isolate(device.label),
                      })}
                      data-testid="device-delete"
                    >
                      {t('account:devices.delete')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title={t('account:devices.confirmTitle')}
        confirmLabel={t('account:devices.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      >
        {toDelete &&
          t(toDelete.current ? 'account:devices.confirmCurrent' : 'account:devices.confirmText', {
            device: isolate(toDelete.label),
          })}
      </ConfirmDialog>
      <AuthenticatorApp />
      <RecoveryCodes />
      <BiometricKeys />
      <IdentityLinks />
    </Page>
  );
}
