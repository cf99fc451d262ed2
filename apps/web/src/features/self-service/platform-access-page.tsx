import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { MyConsent } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { useServices } from '../../lib/services';
import { useMyConsents, useRemoveConsent } from './api/consents';
import { SelfServiceNav } from './self-service-nav';
import { scopeInWords } from './words';

const COLUMNS = ['platform', 'scopes', 'granted', 'actions'] as const;

/** The platforms I let in: what each receives, since when; "remove access" with confirmation. */
export default function PlatformAccessPage() {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const consents = useMyConsents();
  const remove = useRemoveConsent();
  const [toRemove, setToRemove] = useState<MyConsent | null>(null);
  const nameOf = (consent: MyConsent) => consent.platform ?? t('self-service:platforms.deleted');

  const confirmRemove = () => {
    if (!toRemove) return;
    remove.mutate(toRemove.clientId, {
      onSuccess: () => notifications.notify(t('self-service:platforms.removed'), 'success'),
      onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
      onSettled: () => setToRemove(null),
    });
  };

  return (
    <Page title={t('self-service:platforms.title')}>
      <SelfServiceNav />
      <Typography sx={{ mb: 2 }}>{t('self-service:platforms.intro')}</Typography>
      {consents.isError && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {errorMessage(i18n, consents.error)}
        </Alert>
      )}
      {consents.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {consents.data && consents.data.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }} data-testid="consents-empty">
          <Typography>{t('self-service:platforms.empty')}</Typography>
        </Paper>
      )}
      {consents.data && consents.data.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-labelledby="page-title">
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableCell key={column} component="th" scope="col">
                    {t(`self-service:platforms.${column}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {consents.data.map((consent) => (
                <TableRow key={consent.clientId} data-testid="consent-row">
                  <TableCell component="th" scope="row">
                    <bdi>{nameOf(consent)}</bdi>
                  </TableCell>
                  <TableCell>
                    <Box component="ul" sx={{ m: 0, ps: 2 }}>
                      {consent.scopes.map((scope) => (
                        <li key={scope}>
                          <bdi>{scopeInWords(t, scope)}</bdi>
                        </li>
                      ))}
                    </Box>
                  </TableCell>
                  <TableCell>
                    {consent.grantedAt ? formatDateTime(consent.grantedAt, i18n.language) : ''}
                  </TableCell>
                  <TableCell>
                    <Button
                      color="error"
                      onClick={() => setToRemove(consent)}
                      aria-label={t('self-service:platforms.removeNamed', {
                        platform: isolate(nameOf(consent)),
                      })}
                      data-testid="consent-remove"
                    >
                      {t('self-service:platforms.remove')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={toRemove !== null}
        title={t('self-service:platforms.confirmTitle')}
        confirmLabel={t('self-service:platforms.remove')}
        destructive
        pending={remove.isPending}
        onConfirm={confirmRemove}
        onClose={() => setToRemove(null)}
      >
        {toRemove &&
          t('self-service:platforms.confirmText', { platform: isolate(nameOf(toRemove)) })}
      </ConfirmDialog>
    </Page>
  );
}
