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
import type { MySession } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { LEVEL_NAMES } from '../../lib/assurance';
import { useServices } from '../../lib/services';
import { CurrentLevel } from './current-level';
import { useEndOtherSessions, useEndSession, useMySessions } from './api/sessions';
import { SelfServiceNav } from './self-service-nav';
import { deviceInWords, methodsInWords } from './words';

const COLUMNS = ['device', 'ip', 'created', 'lastActive', 'methods', 'level', 'actions'] as const;

/** My live sessions: sign one out, or every one but this. */
export default function SessionsPage() {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const sessions = useMySessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const [toEnd, setToEnd] = useState<MySession | null>(null);
  const [confirmOthers, setConfirmOthers] = useState(false);
  const date = (value: string) => formatDateTime(value, i18n.language);
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  const confirmEnd = () => {
    if (!toEnd) return;
    end.mutate(toEnd.id, {
      onSuccess: () => notifications.notify(t('self-service:sessions.ended'), 'success'),
      onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
      onSettled: () => setToEnd(null),
    });
  };

  const confirmEndOthers = () => {
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) =>
        notifications.notify(t('self-service:sessions.endedOthers', { count: ended }), 'success'),
      onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
      onSettled: () => setConfirmOthers(false),
    });
  };

  return (
    <Page title={t('self-service:sessions.title')}>
      <SelfServiceNav />
      <CurrentLevel />
      <Typography sx={{ mb: 2 }}>{t('self-service:sessions.intro')}</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1, mb: 2 }}>
        <Button
          variant="outlined"
          startIcon={<Refresh aria-hidden="true" />}
          onClick={() => void sessions.refetch()}
          loading={sessions.isFetching}
          data-testid="sessions-refresh"
        >
          {t('self-service:sessions.refresh')}
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={others === 0}
          onClick={() => setConfirmOthers(true)}
          data-testid="sessions-end-others"
        >
          {t('self-service:sessions.endOthers')}
        </Button>
      </Box>
      {sessions.isError && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {errorMessage(i18n, sessions.error)}
        </Alert>
      )}
      {sessions.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {sessions.data && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-labelledby="page-title">
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableCell key={column} component="th" scope="col">
                    {t(`self-service:sessions.${column}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {sessions.data.map((session) => {
                const device = deviceInWords(t, session.device);
                return (
                  <TableRow
                    key={session.id}
                    data-testid="session-row"
                    data-current={session.current ? 'true' : 'false'}
                  >
                    <TableCell component="th" scope="row">
                      <bdi>{device}</bdi>
                      {session.current && (
                        <Chip
                          size="small"
                          color="primary"
                          label={t('self-service:sessions.current')}
                          sx={{ ml: 1 }}
                        />
                      )}
                      {!session.complete && (
                        <Chip
                          size="small"
                          variant="outlined"
                          label={t('self-service:sessions.pending')}
                          sx={{ ml: 1 }}
                        />
                      )}
                    </TableCell>
                    <TableCell>
                      <bdi>{session.ip ?? t('self-service:sessions.unknown')}</bdi>
                    </TableCell>
                    <TableCell>{date(session.createdAt)}</TableCell>
                    <TableCell>{date(session.lastSeenAt)}</TableCell>
                    <TableCell>{methodsInWords(t, i18n.language, session.methods)}</TableCell>
                    <TableCell data-testid="session-level">
                      {t(LEVEL_NAMES[session.level])}
                    </TableCell>
                    <TableCell>
                      {!session.current && (
                        <Button
                          color="error"
                          onClick={() => setToEnd(session)}
                          aria-label={t('self-service:sessions.endNamed', {
                            device: isolate(device),
                          })}
                          data-testid="session-end"
                        >
                          {t('self-service:sessions.end')}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {sessions.data && others === 0 && (
        <Typography sx={{ mt: 2 }} data-testid="sessions-alone">
          {t('self-service:sessions.alone')}
        </Typography>
      )}
      <ConfirmDialog
        open={toEnd !== null}
        title={t('self-service:sessions.confirmTitle')}
        confirmLabel={t('self-service:sessions.end')}
        destructive
        pending={end.isPending}
        onConfirm={confirmEnd}
        onClose={() => setToEnd(null)}
      >
        {toEnd &&
          t('self-service:sessions.confirmText', {
            device: isolate(deviceInWords(t, toEnd.device)),
          })}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmOthers}
        title={t('self-service:sessions.endOthersTitle')}
        confirmLabel={t('self-service:sessions.endOthers')}
        destructive
        pending={endOthers.isPending}
        onConfirm={confirmEndOthers}
        onClose={() => setConfirmOthers(false)}
      >
        {t('self-service:sessions.endOthersText')}
      </ConfirmDialog>
    </Page>
  );
}
