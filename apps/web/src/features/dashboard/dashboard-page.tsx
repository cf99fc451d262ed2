import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';
import { displayName, useSession } from '../../lib/current-user';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { useDashboard } from './api/dashboard';

interface Shortcut {
  to: string;
  titleKey: string;
  descriptionKey: string;
  admin?: boolean;
}

const SHORTCUTS: readonly Shortcut[] = [
  {
    to: '/services',
    titleKey: 'common:nav.services',
    descriptionKey: 'account:dashboard.shortcuts.services',
  },
  {
    to: '/profile',
    titleKey: 'common:nav.profile',
    descriptionKey: 'account:dashboard.shortcuts.profile',
  },
  {
    to: '/devices',
    titleKey: 'common:nav.devices',
    descriptionKey: 'account:dashboard.shortcuts.devices',
  },
  {
    to: '/app-settings',
    titleKey: 'common:nav.appSettings',
    descriptionKey: 'account:dashboard.shortcuts.appSettings',
    admin: true,
  },
];

const STATUS_KEYS = {
  active: 'account:status.active',
  pending_validation: 'account:status.pending_validation',
  locked: 'account:status.locked',
  disabled: 'account:status.disabled',
} as const;

const PROFILE_KEYS = {
  patient: 'account:profileType.patient',
  professional: 'account:profileType.professional',
  none: 'account:profileType.none',
} as const;

export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { user, admin } = useSession();
  const dashboard = useDashboard();
  if (!user) return null;
  const attention = dashboard.data?.attention ?? [];

  return (
    <Page title={t('account:dashboard.title')}>
      <Typography variant="h5" component="p" sx={{ mb: 3 }} data-testid="greeting">
        {t('account:dashboard.greeting', { name: isolate(displayName(user)) })}
      </Typography>

      <Paper
        variant="outlined"
        component="section"
        aria-labelledby="account-summary"
        sx={{ p: 3, mb: 4 }}
      >
        <Typography id="account-summary" variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('account:dashboard.accountTitle')}
        </Typography>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'max-content 1fr',
            gap: 1,
            columnGap: 3,
            m: 0,
          }}
        >
          <Typography component="dt" sx={{ fontWeight: 500 }}>
            {t('account:dashboard.status')}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }} data-testid="account-status">
            {t(STATUS_KEYS[user.status])}
          </Typography>
          <Typography component="dt" sx={{ fontWeight: 500 }}>
            {t('account:dashboard.profileType')}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }} data-testid="profile-type">
            {t(PROFILE_KEYS[user.profile ?? 'none'])}
          </Typography>
          <Typography component="dt" sx={{ fontWeight: 500 }}>
            {t('account:dashboard.email')}
          </Typography>
          {/* A long address wraps rather than widening a phone's screen (reflow at 320 px). */}
          <Typography component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
            <bdi>{user.email}</bdi>
          </Typography>
        </Box>
      </Paper>

      <Box component="section" aria-labelledby="attention-title" sx={{ mb: 4 }}>
        <Typography id="attention-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('account:dashboard.attentionTitle')}
        </Typography>
        {dashboard.isError && (
          <Alert severity="error" data-testid="form-error">
            {errorMessage(i18n, dashboard.error)}
          </Alert>
        )}
        {dashboard.data && attention.length === 0 && (
          <Typography data-testid="attention-none">
            {t('account:dashboard.attentionNone')}
          </Typography>
        )}
        {attention.length > 0 && (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
            {attention.map((item) => (
              <li key={item.kind} data-testid="attention-item" data-kind={item.kind}>
                <Alert
                  severity="warning"
                  action={
                    item.kind === 'terms_to_accept' ? undefined : (
                      <Button
                        component={RouterLink}
                        to={item.kind === 'no_trusted_device' ? '/devices' : '/profile'}
                        color="inherit"
                        size="small"
                      >
                        {t(
                          item.kind === 'phone_unverified'
                            ? 'account:dashboard.attention.phoneAction'
                            : item.kind === 'password_expiring'
                              ? 'account:dashboard.attention.passwordAction'
                              : 'account:dashboard.attention.devicesAction',
                        )}
                      </Button>
                    )
                  }
                >
                  {item.kind === 'phone_unverified' &&
                    t('account:dashboard.attention.phone_unverified')}
                  {item.kind === 'password_expiring' &&
                    t('account:dashboard.attention.password_expiring', {
                      date: formatLongDate(
                        item.at ?? dashboard.data?.passwordExpiresAt ?? '',
                        i18n.language,
                      ),
                    })}
                  {item.kind === 'no_trusted_device' &&
                    t('account:dashboard.attention.no_trusted_device')}
                  {item.kind === 'terms_to_accept' &&
                    t('account:dashboard.attention.terms_to_accept')}
                </Alert>
              </li>
            ))}
          </Box>
        )}
      </Box>

      <Typography id="shortcuts" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('account:dashboard.shortcutsTitle')}
      </Typography>
      <Box
        component="ul"
        aria-labelledby="shortcuts"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
          gap: 2,
          listStyle: 'none',
          p: 0,
          m: 0,
        }}
      >
        {SHORTCUTS.filter((shortcut) => !shortcut.admin || admin).map((shortcut) => (
          <li key={shortcut.to}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea component={RouterLink} to={shortcut.to} sx={{ height: '100%' }}>
                <CardContent>
                  <Typography
                    variant="subtitle1"
                    component="h3"
                    color="primary"
                    sx={{ fontWeight: 500 }}
                  >
                    {t(shortcut.titleKey)}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t(shortcut.descriptionKey)}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </li>
        ))}
      </Box>
    </Page>
  );
}
