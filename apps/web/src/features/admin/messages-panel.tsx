import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AdminMessage, MessageStatus } from '@hygie/domain';
import { messageStatusSchema } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { ShowMore } from './show-more';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { useServices } from '../../lib/services';
import { useMessages, useRetryMessage, type MessageChannel } from './api/messages';

const STATUSES = messageStatusSchema.options;
const CHANNELS: MessageChannel[] = ['email', 'sms', 'logout'];

/** What a message was: its template's name in the interface language, else the template id. */
function useTemplateLabel() {
  const { t } = useTranslation();
  return (template: string) =>
    t(`admin:messages.templates.${template}`, { defaultValue: template });
}

function MessageRow({ message }: { message: AdminMessage }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const retry = useRetryMessage();
  const templateLabel = useTemplateLabel();
  const label = templateLabel(message.template);
  const send = () =>
    retry.mutate(message.id, {
      onSuccess: () =>
        notifications.notify(t('admin:messages.retried', { template: isolate(label) }), 'success'),
      onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
    });
  return (
    <TableRow data-testid="message-row" data-message-status={message.status}>
      <TableCell component="th" scope="row">
        {formatDateTime(message.createdAt, i18n.language)}
      </TableCell>
      <TableCell>{t(`admin:messages.channels.${message.channel}`)}</TableCell>
      <TableCell>
        <bdi>{message.recipient}</bdi>
      </TableCell>
      <TableCell>{label}</TableCell>
      <TableCell>
        {t(`admin:messages.statuses.${message.status}`)}
        {message.status === 'pending' && message.nextAttemptAt && (
          <Typography variant="body2" color="text.secondary">
            {t('admin:messages.nextAttempt', {
              at: formatDateTime(message.nextAttemptAt, i18n.language),
            })}
          </Typography>
        )}
      </TableCell>
      <TableCell>{message.attempts}</TableCell>
      <TableCell>
        {message.lastError ? (
          <Box component="bdi" dir="ltr" sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>
            {message.lastError}
          </Box>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell>
        {message.retryable ? (
          <Button
            size="small"
            variant="outlined"
            loading={retry.isPending}
            onClick={send}
            aria-label={t('admin:messages.retryNamed', { template: isolate(label) })}
            data-testid="message-retry"
          >
            {t('admin:messages.retry')}
          </Button>
        ) : (
          message.status === 'failed' && (
            <Typography variant="body2" color="text.secondary" data-testid="message-not-retryable">
              {t('admin:messages.notRetryable')}
            </Typography>
          )
        )}
      </TableCell>
    </TableRow>
  );
}

/** The outbox (admin): pending, sent, failed and expired messages; a failed one can go again. */
export function MessagesPanel() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<MessageStatus | ''>('failed');
  const [channel, setChannel] = useState<MessageChannel | ''>('');
  const list = useMessages({
    ...(status && { status }),
    ...(channel && { channel }),
  });
  const messages = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Box>
        <Typography id="messages-title" variant="h6" component="h2">
          {t('admin:messages.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('admin:messages.intro')}
        </Typography>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          id="messages-status"
          select
          label={t('admin:messages.status')}
          value={status}
          onChange={(e) => setStatus(STATUSES.find((s) => s === e.target.value) ?? '')}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('admin:messages.all')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`admin:messages.statuses.${s}`)}
            </option>
          ))}
        </TextField>
        <TextField
          id="messages-channel"
          select
          label={t('admin:messages.channel')}
          value={channel}
          onChange={(e) => setChannel(CHANNELS.find((c) => c === e.target.value) ?? '')}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('admin:messages.all')}</option>
          {CHANNELS.map((c) => (
            <option key={c} value={c}>
              {t(`admin:messages.channels.${c}`)}
            </option>
          ))}
        </TextField>
      </Box>
      {list.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, list.error)}
        </Alert>
      )}
      {list.isSuccess && messages.length === 0 && (
        <Typography data-testid="no-message">{t('admin:messages.empty')}</Typography>
      )}
      {messages.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-labelledby="messages-title" size="small">
            <TableHead>
              <TableRow>
                {(
                  [
                    'created',
                    'channel',
                    'recipient',
                    'template',
                    'status',
                    'attempts',
                    'lastError',
                    'actions',
                  ] as const
                ).map((column) => (
                  <TableCell key={column} component="th" scope="col">
                    {t(`admin:messages.columns.${column}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {messages.map((message) => (
                <MessageRow key={message.id} message={message} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ShowMore list={list} label={t('admin:messages.more')} testId="messages-more" />
    </Box>
  );
}
