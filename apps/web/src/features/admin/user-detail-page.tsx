import type { ReactNode } from 'react';
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatPhone, type AdminUserDetail } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { StepUpSecondFactor, useSecondFactorStepUp } from '../../components/step-up';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format-date-time';
import { useServices } from '../../lib/services';
import { AddressText } from '../profile/person-fields';
import { useUserChange, useUserDetail, type UserChange } from './api/user-detail';

/** Changes that cut the person's access: red, and the server asks for a fresh proof. */
const DESTRUCTIVE: readonly UserChange[] = [
  'lock',
  'disable',
  'end-sessions',
  'remove-admin',
  'delete',
];

/** The changes that apply to the account as it stands. */
function changesFor(user: AdminUserDetail): UserChange[] {
  const { status } = user.profile;
  const closed = status === 'locked' || status === 'disabled';
  const admin = user.roles.includes('admin');
  return [
    ...(status === 'locked' ? (['unlock'] as const) : []),
    ...(status === 'disabled' ? (['enable'] as const) : []),
    ...(status === 'active' || status === 'pending_validation' ? (['lock'] as const) : []),
    ...(status !== 'disabled' ? (['disable'] as const) : []),
    ...(user.sessions.length > 0 || user.trustedDevices.length > 0
      ? (['end-sessions'] as const)
      : []),
    ...(!closed && !user.invitationPending ? (['send-password-reset'] as const) : []),
    ...(!closed && user.invitationPending ? (['resend-invitation'] as const) : []),
    admin ? 'remove-admin' : 'make-admin',
    'delete',
  ];
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** A small table with a header row; `empty` when there is no row. */
function SimpleTable({
  labelledBy,
  columns,
  rows,
  empty,
  testId,
}: {
  labelledBy: string;
  columns: string[];
  rows: ReactNode[][];
  empty: string;
  testId: string;
}) {
  if (rows.length === 0) return <Typography data-testid={`${testId}-empty`}>{empty}</Typography>;
  return (
    <TableContainer>
      <Table size="small" aria-labelledby={labelledBy}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column} component="th" scope="col">
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((cells, index) => (
            <TableRow key={index} data-testid={`${testId}-row`}>
              {cells.map((cell, column) => (
                <TableCell key={column}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function Facts({ user }: { user: AdminUserDetail }) {
  const { t, i18n } = useTranslation();
  const { profile } = user;
  const when = (value: string | null) =>
    value ? formatDateTime(value, i18n.language) : t('admin:user.never');
  const verified = (yes: boolean) => t(yes ? 'admin:user.verified' : 'admin:user.unverified');
  // The fields of the account's profile type only (a patient's parent, a professional's category).
  const profileExtras: [string, ReactNode][] =
    profile.profile === 'patient'
      ? [
          [
            t('account:profile.parentIns'),
            profile.parentIns ? <bdi key="pi">{profile.parentIns}</bdi> : '—',
          ],
        ]
      : profile.profile === 'professional'
        ? [
            [
              t('account:profile.category'),
              profile.category ? t(`account:profile.categories.${profile.category}`) : '—',
            ],
          ]
        : [];
  const facts: [string, ReactNode][] = [
    [
      t('admin:users.email'),
      <bdi key="e">{`${profile.email} — ${verified(profile.emailVerified)}`}</bdi>,
    ],
    [
      t('admin:user.phone'),
      profile.phone ? (
        <bdi key="p">{`${formatPhone(profile.phone)} — ${verified(profile.phoneVerified)}`}</bdi>
      ) : (
        '—'
      ),
    ],
    [t('admin:users.type'), t(`account:profileType.${profile.profile ?? 'none'}`)],
    [
      t('admin:users.identifier'),
      profile.ins ? (
        <bdi key="i">{`INS ${profile.ins}`}</bdi>
      ) : profile.identifier ? (
        <bdi key="i">{`${profile.identifierType ?? ''} ${profile.identifier}`}</bdi>
      ) : (
        '—'
      ),
    ],
    ...profileExtras,
    [
      t('account:profile.gender'),
      profile.gender ? t(`account:profile.genders.${profile.gender}`) : '—',
    ],
    [
      t('account:profile.address'),
      profile.address ? <AddressText key="a" address={profile.address} /> : '—',
    ],
    [t('admin:user.status'), t(`account:status.${profile.status}`)],
    [
      t('admin:user.role'),
      t(user.roles.includes('admin') ? 'admin:user.roleAdmin' : 'admin:user.roleUser'),
    ],
    [t('admin:users.created'), when(user.createdAt)],
    [t('admin:user.lastSignIn'), when(user.lastSignInAt)],
    [
      t('admin:user.passwordChanged'),
      user.invitationPending ? t('admin:user.invitationPending') : when(user.passwordChangedAt),
    ],
  ];
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
        columnGap: 3,
        rowGap: 1,
        m: 0,
      }}
      data-testid="user-facts"
    >
      {facts.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            {term}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Actions({ user }: { user: AdminUserDetail }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const navigate = useNavigate();
  const change = useUserChange(user.profile.id);
  const stepUp = useSecondFactorStepUp(change.error);
  const [pending, setPending] = useState<UserChange | null>(null);
  const name = isolate(
    [user.profile.firstName, user.profile.lastName].filter(Boolean).join(' ') || user.profile.email,
  );

  const close = () => {
    setPending(null);
    change.reset();
  };
  const confirm = () => {
    if (!pending) return;
    const chosen = pending;
    stepUp.run(() =>
      change.mutate(chosen, {
        onSuccess: () => {
          notifications.notify(t(`admin:user.actions.${chosen}.done`, { name }), 'success');
          close();
          if (chosen === 'delete') void navigate('/app-settings?tab=access');
        },
      }),
    );
  };
  const failure = change.error && !stepUp.required ? errorMessage(i18n, change.error) : null;

  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {changesFor(user).map((action) => (
          <Button
            key={action}
            variant={DESTRUCTIVE.includes(action) ? 'outlined' : 'contained'}
            color={DESTRUCTIVE.includes(action) ? 'error' : 'primary'}
            onClick={() => setPending(action)}
            data-testid={`user-action-${action}`}
          >
            {t(`admin:user.actions.${action}.label`)}
          </Button>
        ))}
      </Box>
      <ConfirmDialog
        open={pending !== null}
        title={pending ? t(`admin:user.actions.${pending}.label`) : ''}
        confirmLabel={pending ? t(`admin:user.actions.${pending}.label`) : ''}
        destructive={pending !== null && DESTRUCTIVE.includes(pending)}
        pending={change.isPending || stepUp.pending}
        onConfirm={confirm}
        onClose={close}
      >
        {pending && (
          <Box sx={{ display: 'grid', gap: 2 }}>
            <span>{t(`admin:user.actions.${pending}.text`, { name })}</span>
            {failure && (
              <Alert severity="error" role="alert" data-testid="form-error">
                {failure}
              </Alert>
            )}
            <StepUpSecondFactor stepUp={stepUp} id="user-action-step-up" />
          </Box>
        )}
      </ConfirmDialog>
    </>
  );
}

/** One user for an operator: who they are, how they sign in, what they reach, what happened. */
export default function UserDetailPage() {
  const { t, i18n } = useTranslation();
  const { userId = '' } = useParams();
  const detail = useUserDetail(userId);
  const user = detail.data;
  const name = user
    ? [user.profile.firstName, user.profile.lastName].filter(Boolean).join(' ') ||
      user.profile.email
    : '';
  const at = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—');

  return (
    <Page title={user ? t('admin:user.title', { name: isolate(name) }) : t('admin:user.loading')}>
      <Box sx={{ mb: 2 }}>
        <Link component={RouterLink} to="/app-settings?tab=access" data-testid="user-back">
          {t('admin:user.back')}
        </Link>
      </Box>
      {detail.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, detail.error)}
        </Alert>
      )}
      {detail.isPending && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress aria-hidden="true" size={24} />
          <span>{t('common:loading')}</span>
        </Box>
      )}
      {user && (
        <Box sx={{ display: 'grid', gap: 3 }}>
          <Section id="user-facts-title" title={t('admin:user.facts')}>
            <Facts user={user} />
          </Section>
          <Section id="user-actions-title" title={t('admin:user.actionsTitle')}>
            <Actions user={user} />
          </Section>
          <Section id="user-sessions-title" title={t('admin:user.sessions')}>
            <SimpleTable
              labelledBy="user-sessions-title"
              testId="user-session"
              columns={[
                t('admin:user.device'),
                t('admin:user.ip'),
                t('admin:user.opened'),
                t('admin:user.lastSeen'),
                t('admin:user.methods'),
              ]}
              rows={user.sessions.map((s) => [
                s.complete ? s.label : `${s.label} — ${t('admin:user.incomplete')}`,
                <bdi key="ip">{s.ip ?? '—'}</bdi>,
                at(s.createdAt),
                at(s.lastSeenAt),
                <bdi key="m">{s.methods.join(' ') || '—'}</bdi>,
              ])}
              empty={t('admin:user.noSession')}
            />
          </Section>
          <Section id="user-devices-title" title={t('admin:user.devices')}>
            <SimpleTable
              labelledBy="user-devices-title"
              testId="user-device"
              columns={[
                t('admin:user.device'),
                t('admin:user.ip'),
                t('admin:user.lastSeen'),
                t('admin:user.expires'),
              ]}
              rows={user.trustedDevices.map((d) => [
                d.label,
                <bdi key="ip">{d.ip ?? '—'}</bdi>,
                at(d.lastUsed),
                at(d.expiresAt),
              ])}
              empty={t('admin:user.noDevice')}
            />
          </Section>
          <Section id="user-keys-title" title={t('admin:user.keys')}>
            <SimpleTable
              labelledBy="user-keys-title"
              testId="user-key"
              columns={[t('admin:user.device'), t('admin:user.opened'), t('admin:user.lastSeen')]}
              rows={user.keys.map((k) => [
                <bdi key="n">{k.deviceName}</bdi>,
                at(k.createdAt),
                at(k.lastUsedAt),
              ])}
              empty={t('admin:user.noKey')}
            />
          </Section>
          <Section id="user-platforms-title" title={t('admin:access.platforms')}>
            <SimpleTable
              labelledBy="user-platforms-title"
              testId="user-platform"
              columns={[t('admin:platforms.name'), t('admin:user.access')]}
              rows={user.platforms.map((p) => [
                p.name,
                t(p.usable ? 'admin:user.usable' : 'admin:user.notUsable'),
              ])}
              empty={t('admin:access.noPlatform')}
            />
          </Section>
          <Section id="user-consents-title" title={t('admin:user.consents')}>
            <SimpleTable
              labelledBy="user-consents-title"
              testId="user-consent"
              columns={[t('admin:platforms.name'), t('admin:user.scopes'), t('admin:user.granted')]}
              rows={user.consents.map((c) => [
                c.platform ?? <bdi key="c">{c.clientId}</bdi>,
                <bdi key="s">{c.scopes.join(' ')}</bdi>,
                at(c.grantedAt),
              ])}
              empty={t('admin:user.noConsent')}
            />
          </Section>
          <Section id="user-events-title" title={t('admin:user.events')}>
            <Box sx={{ mb: 2 }}>
              <Link
                component={RouterLink}
                to={`/app-settings?tab=audit&user=${encodeURIComponent(user.profile.id)}`}
                data-testid="user-history"
              >
                {t('admin:user.history')}
              </Link>
            </Box>
            <SimpleTable
              labelledBy="user-events-title"
              testId="user-event"
              columns={[
                t('admin:user.when'),
                t('admin:user.event'),
                t('admin:user.by'),
                t('admin:user.ip'),
              ]}
              rows={user.events.map((e) => [
                at(e.at),
                t(`admin:events.${e.action}`, { defaultValue: e.action }),
                e.actorId === null
                  ? '—'
                  : e.actorId === user.profile.id
                    ? t('admin:user.byThemself')
                    : t('admin:user.byAdmin'),
                <bdi key="ip">{e.ip ?? '—'}</bdi>,
              ])}
              empty={t('admin:user.noEvent')}
            />
          </Section>
        </Box>
      )}
    </Page>
  );
}
