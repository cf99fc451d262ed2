import type { ReactNode } from 'react';
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import type { AdminUser } from '@hygie/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError } from '../../components/form-error';
import { errorMessage, isolate } from '../../lib/error-message';
import { applyServerErrors } from '../../lib/form-errors';
import { emailField } from '../../lib/form-schemas';
import { formatLongDate } from '../../lib/format-date';
import { registeredField, voidHandler } from '../../lib/handlers';
import { useKeysetPages } from '../../lib/keyset-pages';
import { useServices } from '../../lib/services';
import { validationMessage } from '../../lib/validation-message';
import { useAccountAction, type AccountAction } from './api/account-action';
import { Pagination } from './pagination';
import { useInvite } from './api/invite';
import { useUserSearch } from './api/users';

interface PendingAction {
  user: AdminUser;
  action: AccountAction;
}

function UserTable({
  status,
  titleId,
  actions,
  onAction,
}: {
  status: 'pending_validation' | 'locked';
  titleId: string;
  actions: AccountAction[];
  onAction: (change: PendingAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const pages = useKeysetPages();
  const list = useUserSearch({ q: '', status, ...(pages.cursor && { cursor: pages.cursor }) });
  const items = list.data?.items ?? [];
  const testId = status === 'locked' ? 'locked' : 'pending';
  return (
    <>
      {list.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, list.error)}
        </Alert>
      )}
      {list.data && items.length === 0 && (
        <Typography data-testid={`${testId}-empty`}>
          {t(status === 'locked' ? 'admin:accounts.noLocked' : 'admin:accounts.noPending')}
        </Typography>
      )}
      {items.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-labelledby={titleId}>
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  {t('admin:users.name')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:users.email')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:users.identifier')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:users.created')}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t('admin:users.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((user) => (
                <TableRow key={user.id} data-testid={`${testId}-row`} data-user-email={user.email}>
                  <TableCell component="th" scope="row">
                    {user.name || t('admin:users.noName')}
                  </TableCell>
                  <TableCell>
                    <bdi>{user.email}</bdi>
                  </TableCell>
                  <TableCell>
                    <bdi>{user.identifier ?? '—'}</bdi>
                  </TableCell>
                  <TableCell>{formatLongDate(user.createdAt, i18n.language)}</TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                      {actions.map((action) => (
                        <Button
                          key={action}
                          size="small"
                          variant={action === 'reject' ? 'outlined' : 'contained'}
                          color={action === 'reject' ? 'error' : 'primary'}
                          onClick={() => onAction({ user, action })}
                          aria-label={t(`admin:accounts.${action}Named`, {
                            name: isolate(user.name || user.email),
                          })}
                          data-testid={`account-${action}`}
                        >
                          {t(`admin:accounts.${action}`)}
                        </Button>
                      ))}
                    </Box>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Pagination pages={pages} nextCursor={list.data?.nextCursor} testId={testId} />
    </>
  );
}

const optionalName = z.string().trim().max(100, { error: 'first_name_length' });
const invitationForm = z.object({
  email: emailField,
  firstName: optionalName,
  lastName: optionalName,
  profile: z.enum(['', 'patient', 'professional']),
  admin: z.boolean(),
});
type InvitationForm = z.input<typeof invitationForm>;

function InviteForm() {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const invite = useInvite();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<InvitationForm>({
    resolver: zodResolver(invitationForm),
    defaultValues: { email: '', firstName: '', lastName: '', profile: '', admin: false },
  });

  const text = (name: 'email' | 'firstName' | 'lastName') => {
    return {
      ...registeredField(register(name)),
      error: !!errors[name],
      helperText: validationMessage(i18n, errors[name]?.message),
      fullWidth: true,
    };
  };
  const profile = register('profile');
  const admin = register('admin');

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    const email = values.email.trim();
    invite.mutate(
      {
        email,
        ...(values.firstName?.trim() && { firstName: values.firstName.trim() }),
        ...(values.lastName?.trim() && { lastName: values.lastName.trim() }),
        profile: values.profile === '' ? null : values.profile,
        admin: values.admin ?? false,
      },
      {
        onSuccess: () => {
          reset();
          notifications.notify(t('admin:invite.sent', { email: isolate(email) }), 'success');
        },
        onError: (error) => {
          const onFields = applyServerErrors(error, setError, ['email', 'firstName', 'lastName'], {
            email_already_used: 'email',
          });
          if (!onFields) setFailure(errorMessage(i18n, error));
        },
      },
    );
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={voidHandler(onSubmit)}
      aria-labelledby="invite-title"
      sx={{ display: 'grid', gap: 2 }}
    >
      <FormError>{failure}</FormError>
      <TextField
        {...text('email')}
        id="invite-email"
        type="email"
        label={t('admin:invite.email')}
        required
        autoComplete="off"
        slotProps={{ htmlInput: { dir: 'ltr', maxLength: 180, autoCapitalize: 'none' } }}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          {...text('firstName')}
          id="invite-first-name"
          label={t('admin:invite.firstName')}
        />
        <TextField {...text('lastName')} id="invite-last-name" label={t('admin:invite.lastName')} />
      </Box>
      <TextField
        id="invite-profile"
        select
        label={t('admin:invite.profile')}
        {...registeredField(profile)}
        defaultValue=""
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        <option value="">{t('account:profileType.none')}</option>
        <option value="patient">{t('account:profileType.patient')}</option>
        <option value="professional">{t('account:profileType.professional')}</option>
      </TextField>
      <FormControlLabel
        control={
          <Checkbox
            id="invite-admin"
            name={admin.name}
            onChange={voidHandler(admin.onChange)}
            onBlur={voidHandler(admin.onBlur)}
            slotProps={{ input: { ref: admin.ref } }}
          />
        }
        label={t('admin:invite.admin')}
      />
      <Box>
        <Button
          type="submit"
          variant="contained"
          loading={invite.isPending}
          data-testid="invite-submit"
        >
          {t('admin:invite.submit')}
        </Button>
      </Box>
    </Box>
  );
}

/** (c) Accounts: pending professionals to validate or reject, invitations, locked accounts. */
export function AccountsPanel() {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const act = useAccountAction();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const name = pending ? isolate(pending.user.name || pending.user.email) : '';

  const confirm = () => {
    if (!pending) return;
    const { user, action } = pending;
    act.mutate(
      { userId: user.id, action },
      {
        onSuccess: () =>
          notifications.notify(
            t(`admin:accounts.${action}Done`, { name: isolate(user.name || user.email) }),
            'success',
          ),
        onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
        onSettled: () => setPending(null),
      },
    );
  };

  const section = (id: string, title: string, intro: string, children: ReactNode) => (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} variant="h6" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {intro}
      </Typography>
      {children}
    </Paper>
  );

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      {section(
        'pending-title',
        t('admin:accounts.pendingTitle'),
        t('admin:accounts.pendingIntro'),
        <UserTable
          status="pending_validation"
          titleId="pending-title"
          actions={['validate', 'reject']}
          onAction={setPending}
        />,
      )}
      {section('invite-title', t('admin:invite.title'), t('admin:invite.intro'), <InviteForm />)}
      {section(
        'locked-title',
        t('admin:accounts.lockedTitle'),
        t('admin:accounts.lockedIntro'),
        <UserTable
          status="locked"
          titleId="locked-title"
          actions={['unlock']}
          onAction={setPending}
        />,
      )}
      <ConfirmDialog
        open={pending !== null}
        title={pending ? t(`admin:accounts.${pending.action}Title`) : ''}
        confirmLabel={pending ? t(`admin:accounts.${pending.action}`) : ''}
        destructive={pending?.action === 'reject'}
        pending={act.isPending}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      >
        {pending && t(`admin:accounts.${pending.action}Text`, { name })}
      </ConfirmDialog>
    </Box>
  );
}
