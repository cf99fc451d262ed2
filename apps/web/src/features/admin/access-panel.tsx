import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AccountStatus, AdminUser } from '@hygie/domain';
import { accountStatusSchema } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { dataAttributes } from '../../lib/data-attributes';
import { errorMessage, isolate } from '../../lib/error-message';
import { useKeysetPages } from '../../lib/keyset-pages';
import { useServices } from '../../lib/services';
import { useSetPlatformAccess } from './api/set-platform-access';
import { useUserSearch } from './api/users';
import { IdentityDialog } from './identity-dialog';
import { Pagination } from './pagination';
import { useDebounced } from './use-debounced';

interface PendingChange {
  user: AdminUser;
  platform: AdminUser['platforms'][number];
}

/** (b) Disable access to a platform: find users, switch their access per platform. */
export function AccessPanel() {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const [text, setText] = useState('');
  const [status, setStatus] = useState<AccountStatus | ''>('');
  const [role, setRole] = useState<'admin' | 'user' | ''>('');
  const [type, setType] = useState<'patient' | 'professional' | 'none' | ''>('');
  const q = useDebounced(text.trim());
  // A page cursor is a place in one search's order: another text or filter starts at page 1.
  const pages = useKeysetPages(JSON.stringify([q, status, role, type]));
  const search = useUserSearch({
    q,
    ...(pages.cursor && { cursor: pages.cursor }),
    ...(status && { status }),
    ...(role && { role }),
    ...(type && { type }),
  });
  const access = useSetPlatformAccess();
  const [change, setChange] = useState<PendingChange | null>(null);
  const [identityOf, setIdentityOf] = useState<AdminUser | null>(null);
  const items = search.data?.items ?? [];
  const enabling = change ? !change.platform.usable : false;

  const confirm = () => {
    if (!change) return;
    const { user, platform } = change;
    access.mutate(
      { userId: user.id, platformId: platform.platformId, enabled: !platform.usable },
      {
        onSuccess: (result) =>
          notifications.notify(
            t(result.usable ? 'admin:access.enabledDone' : 'admin:access.disabledDone', {
              platform: platform.name,
              name: isolate(user.name || user.email),
            }),
            'success',
          ),
        onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
        onSettled: () => setChange(null),
      },
    );
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography>{t('admin:access.intro')}</Typography>
      <TextField
        id="user-search"
        type="search"
        label={t('admin:access.search')}
        helperText={t('admin:access.searchHelp')}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          pages.reset();
        }}
        fullWidth
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: 180, 'data-testid': 'user-search' } }}
      />
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}
      >
        <TextField
          id="users-type"
          select
          label={t('admin:users.type')}
          value={type}
          onChange={(event) => {
            const chosen = event.target.value;
            setType(
              chosen === 'patient' || chosen === 'professional' || chosen === 'none' ? chosen : '',
            );
            pages.reset();
          }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('admin:access.filters.all')}</option>
          <option value="patient">{t('account:profileType.patient')}</option>
          <option value="professional">{t('account:profileType.professional')}</option>
          <option value="none">{t('account:profileType.none')}</option>
        </TextField>
        <TextField
          id="users-status"
          select
          label={t('admin:access.filters.status')}
          value={status}
          onChange={(event) => {
            setStatus(accountStatusSchema.options.find((s) => s === event.target.value) ?? '');
            pages.reset();
          }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('admin:access.filters.all')}</option>
          {accountStatusSchema.options.map((s) => (
            <option key={s} value={s}>
              {t(`account:status.${s}`)}
            </option>
          ))}
        </TextField>
        <TextField
          id="users-role"
          select
          label={t('admin:access.filters.role')}
          value={role}
          onChange={(event) => {
            const chosen = event.target.value;
            setRole(chosen === 'admin' || chosen === 'user' ? chosen : '');
            pages.reset();
          }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{t('admin:access.filters.all')}</option>
          <option value="admin">{t('admin:user.roleAdmin')}</option>
          <option value="user">{t('admin:user.roleUser')}</option>
        </TextField>
      </Box>
      {search.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, search.error)}
        </Alert>
      )}
      {search.data && items.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }} data-testid="no-user-found" role="status">
          <Typography>{t('admin:access.noUserFound')}</Typography>
        </Paper>
      )}
      {items.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label={t('admin:access.results')}>
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  {t('admin:users.name')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:users.email')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:users.type')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:access.platforms')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:identity.column')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((user) => (
                <TableRow key={user.id} data-testid="user-row" data-user-email={user.email}>
                  <TableCell component="th" scope="row">
                    <Link
                      component={RouterLink}
                      to={`/app-settings/users/${encodeURIComponent(user.id)}`}
                      aria-label={t('admin:user.open', { name: isolate(user.name || user.email) })}
                      data-testid="user-open"
                    >
                      {user.name || t('admin:users.noName')}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <bdi>{user.email}</bdi>
                  </TableCell>
                  <TableCell>{t(`account:profileType.${user.type ?? 'none'}`)}</TableCell>
                  <TableCell>
                    {user.platforms.length === 0 && t('admin:access.noPlatform')}
                    <Box sx={{ display: 'grid' }}>
                      {user.platforms.map((platform) => (
                        <FormControlLabel
                          key={platform.platformId}
                          control={
                            <Switch
                              checked={platform.usable}
                              onChange={() => setChange({ user, platform })}
                              slotProps={{
                                input: {
                                  'aria-label': t('admin:access.toggleLabel', {
                                    platform: platform.name,
                                    name: user.name || user.email,
                                  }),
                                  ...dataAttributes({
                                    'data-testid': 'platform-access-toggle',
                                    'data-platform-name': platform.name,
                                  }),
                                },
                              }}
                            />
                          }
                          label={platform.name}
                        />
                      ))}
                    </Box>
                  </TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      onClick={() => setIdentityOf(user)}
                      aria-label={t('admin:identity.openNamed', {
                        name: isolate(user.name || user.email),
                      })}
                      data-testid="identity-open"
                    >
                      {t('admin:identity.open')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Pagination pages={pages} nextCursor={search.data?.nextCursor} testId="users" />
      {identityOf && (
        <IdentityDialog
          userId={identityOf.id}
          name={identityOf.name || identityOf.email}
          onClose={() => setIdentityOf(null)}
        />
      )}
      <ConfirmDialog
        open={change !== null}
        title={t(enabling ? 'admin:access.enableTitle' : 'admin:access.disableTitle')}
        confirmLabel={t(enabling ? 'admin:access.enable' : 'admin:access.disable')}
        destructive={!enabling}
        pending={access.isPending}
        onConfirm={confirm}
        onClose={() => setChange(null)}
      >
        {change &&
          t(enabling ? 'admin:access.enableText' : 'admin:access.disableText', {
            platform: change.platform.name,
            name: isolate(change.user.name || change.user.email),
          })}
      </ConfirmDialog>
    </Box>
  );
}
