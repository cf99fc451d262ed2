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
import type { TFunction } from 'i18next';
import type { MyActivityEvent } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { errorMessage } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { useMyActivity } from './api/activity';
import { SelfServiceNav } from './self-service-nav';
import { deviceInWords, listInWords, scopeInWords } from './words';

const COLUMNS = ['when', 'event', 'by', 'where'] as const;

const REASONS = [
  'bad_credentials',
  'account_locked',
  'account_disabled',
  'account_pending_validation',
  'throttled',
  'token_revoked',
  'logout',
  'reuse',
  'removed_by_user',
] as const;
const CHANNELS = ['email', 'sms'] as const;

function known<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return list.some((item) => item === value);
}

const BY = {
  me: 'self-service:activity.byMe',
  administrator: 'self-service:activity.byAdministrator',
  nobody: 'self-service:activity.byNobody',
} as const;

/** What the event adds in words: the platform, why, by which channel, which data. */
function detailsInWords(t: TFunction, language: string, { details }: MyActivityEvent): string[] {
  return [
    details.platform,
    known(REASONS, details.reason) ? t(`self-service:activity.reasons.${details.reason}`) : null,
    known(CHANNELS, details.channel)
      ? t(`self-service:activity.channels.${details.channel}`)
      : null,
    details.scopes &&
      listInWords(
        language,
        details.scopes.map((scope) => scopeInWords(t, scope)),
      ),
  ].flatMap((part) => (part ? [part] : []));
}

/** My security events, newest first; older ones on demand. */
export default function ActivityPage() {
  const { t, i18n } = useTranslation();
  const activity = useMyActivity();
  const events = activity.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Page title={t('self-service:activity.title')}>
      <SelfServiceNav />
      <Typography sx={{ mb: 2 }}>{t('self-service:activity.intro')}</Typography>
      {activity.isError && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {errorMessage(i18n, activity.error)}
        </Alert>
      )}
      {activity.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {activity.data && events.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }} data-testid="activity-empty">
          <Typography>{t('self-service:activity.empty')}</Typography>
        </Paper>
      )}
      {events.length > 0 && (
        <TableContainer component={Paper} variant="outlined" sx={{ mb: 2 }}>
          <Table aria-labelledby="page-title">
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableCell key={column} component="th" scope="col">
                    {t(`self-service:activity.${column}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {events.map((event) => {
                const details = detailsInWords(t, i18n.language, event);
                return (
                  <TableRow key={event.id} data-testid="activity-row" data-action={event.action}>
                    <TableCell>{formatDateTime(event.at, i18n.language)}</TableCell>
                    <TableCell component="th" scope="row">
                      {t(`self-service:activity.events.${event.action}`)}
                      {details.length > 0 && (
                        <Typography variant="body2" color="text.secondary">
                          <bdi>{details.join(' · ')}</bdi>
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>{t(BY[event.by])}</TableCell>
                    <TableCell>
                      {event.device && <bdi>{deviceInWords(t, event.device)}</bdi>}
                      {event.ip && (
                        <Typography variant="body2" color="text.secondary">
                          <bdi>{event.ip}</bdi>
                        </Typography>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {activity.hasNextPage && (
        <Button
          onClick={() => void activity.fetchNextPage()}
          loading={activity.isFetchingNextPage}
          data-testid="activity-more"
        >
          {t('self-service:activity.more')}
        </Button>
      )}
    </Page>
  );
}
