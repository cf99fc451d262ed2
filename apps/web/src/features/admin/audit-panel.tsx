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
import { AUDIT_ACTIONS } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ShowMore } from './show-more';
import { errorMessage } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { auditParams, useAudit, type AuditFilter } from './api/audit';

const COLUMNS = ['when', 'event', 'user', 'by', 'ip', 'request'] as const;

/** The audit trail (admin): filters, newest first, page after page, and the CSV export. */
export function AuditPanel() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const [filter, setFilter] = useState<AuditFilter>({ user: params.get('user') ?? '' });
  const list = useAudit(filter);
  const events = list.data?.pages.flatMap((page) => page.items) ?? [];
  const exportUrl = `/api/admin/audit/export?${new URLSearchParams({
    ...auditParams(filter),
    l: i18n.language,
  }).toString()}`;
  const set = (key: keyof AuditFilter) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setFilter((current) => ({ ...current, [key]: event.target.value.trim() }));

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Box>
        <Typography id="audit-title" variant="h6" component="h2">
          {t('admin:audit.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('admin:audit.intro')}
        </Typography>
      </Box>
      <Box
        component="form"
        role="search"
        aria-label={t('admin:audit.filters')}
        onSubmit={(event) => event.preventDefault()}
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(4, 1fr)' } }}
      >
        <TextField
          id="audit-user"
          label={t('admin:audit.user')}
          helperText={t('admin:audit.userHelp')}
          value={filter.user ?? ''}
          onChange={set('user')}
          slotProps={{ htmlInput: { dir: 'ltr', maxLength: 64 } }}
        />
        <TextField
          id="audit-type"
          select
          label={t('admin:audit.type')}
          value={filter.type ?? ''}
          onChange={set('type')}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('admin:audit.allTypes')}</option>
          {[...AUDIT_ACTIONS].sort().map((action) => (
            <option key={action} value={action}>
              {t(`admin:events.${action}`)}
            </option>
          ))}
        </TextField>
        <TextField
          id="audit-from"
          type="date"
          label={t('admin:audit.from')}
          value={filter.from ?? ''}
          onChange={set('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          id="audit-to"
          type="date"
          label={t('admin:audit.to')}
          value={filter.to ?? ''}
          onChange={set('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Box>
      <Box>
        <Button variant="outlined" href={exportUrl} download data-testid="audit-export">
          {t('admin:audit.export')}
        </Button>
      </Box>
      {list.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, list.error)}
        </Alert>
      )}
      {list.isSuccess && events.length === 0 && (
        <Typography data-testid="no-event">{t('admin:audit.empty')}</Typography>
      )}
      {events.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-labelledby="audit-title">
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableCell key={column} component="th" scope="col">
                    {t(`admin:audit.columns.${column}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {events.map((event) => (
                <TableRow key={event.id} data-testid="audit-row" data-action={event.action}>
                  <TableCell component="th" scope="row">
                    {formatDateTime(event.at, i18n.language)}
                  </TableCell>
                  <TableCell>
                    {t(`admin:events.${event.action}`, { defaultValue: event.action })}
                  </TableCell>
                  <TableCell>
                    <bdi>{event.targetId ?? '—'}</bdi>
                  </TableCell>
                  <TableCell>
                    <bdi>{event.actorId ?? '—'}</bdi>
                  </TableCell>
                  <TableCell>
                    <bdi>{event.ip ?? '—'}</bdi>
                  </TableCell>
                  <TableCell>
                    <bdi>{event.requestId ?? '—'}</bdi>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ShowMore list={list} label={t('admin:audit.more')} testId="audit-more" />
    </Box>
  );
}
