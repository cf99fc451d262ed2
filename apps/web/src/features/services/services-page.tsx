import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import OpenInNew from '@mui/icons-material/OpenInNew';
import type { Service } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';
import { LEGAL_LINKS } from '../../components/site-footer';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { useServices } from '../../lib/services';
import { useEnableService } from './api/enable-service';
import { usePlatformServices } from './api/services';
import { useCguStatus } from '../consent/api/get-cgu';
import { SupportDialog } from './support-dialog';

function isWebUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** The first letter of a name, for a platform without a logo. */
function initialOf(name: string): string {
  return Array.from(name.trim())[0]?.toLocaleUpperCase() ?? '?';
}

/** Where the user stands with a platform, in words (and a colour for the open ones). */
const STATUS = {
  open: { key: 'self-service:services.status.open', color: 'success' },
  enable: { key: 'self-service:services.status.enable', color: 'default' },
  request: { key: 'self-service:services.status.request', color: 'default' },
  pending: { key: 'account:services.pending', color: 'default' },
  none: { key: 'account:services.unavailable', color: 'default' },
} as const;

/** The platform's logo, or its initial when it has none (decorative: the name follows). */
function ServiceLogo({ service }: { service: Service }) {
  const logo = service.logoUrl && isWebUrl(service.logoUrl) ? service.logoUrl : undefined;
  return (
    <Avatar
      variant="rounded"
      src={logo}
      alt=""
      aria-hidden="true"
      sx={{ width: 40, height: 40, bgcolor: 'primary.main', color: 'primary.contrastText' }}
      data-testid="service-logo"
    >
      {initialOf(service.name)}
    </Avatar>
  );
}

function ServiceCard({ service }: { service: Service }) {
  const { t, i18n } = useTranslation();
  const { notifications } = useServices();
  const enable = useEnableService();
  const headingId = `service-${service.id}`;

  const onEnable = () =>
    enable.mutate(service.id, {
      onSuccess: (access) =>
        notifications.notify(
          t(access.usable ? 'account:services.enabled' : 'account:services.requested', {
            name: service.name,
          }),
          'success',
        ),
      onError: (error) => notifications.notify(errorMessage(i18n, error), 'error'),
    });

  return (
    <Card
      variant="outlined"
      component="article"
      aria-labelledby={headingId}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
      data-testid="service-card"
      data-service-name={service.name}
    >
      <CardContent sx={{ flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
          <ServiceLogo service={service} />
          <Typography id={headingId} variant="h6" component="h3">
            {service.name}
          </Typography>
        </Box>
        {service.description && (
          <Typography variant="body2" color="text.secondary">
            {service.description}
          </Typography>
        )}
        <Chip
          size="small"
          variant="outlined"
          sx={{ mt: 1 }}
          color={STATUS[service.action].color}
          label={t(STATUS[service.action].key)}
          data-testid="service-status"
        />
      </CardContent>
      <CardActions>
        {service.usable && isWebUrl(service.url) && (
          <Button
            variant="contained"
            href={service.url}
            target="_blank"
            rel="noopener noreferrer"
            endIcon={<OpenInNew aria-hidden="true" />}
            aria-label={t('account:services.accessNamed', { name: service.name })}
            data-testid="service-access"
          >
            {t('account:services.access')}
          </Button>
        )}
        {!service.usable && (service.action === 'enable' || service.action === 'request') && (
          <Button
            variant="outlined"
            onClick={onEnable}
            loading={enable.isPending}
            aria-label={t(
              service.action === 'enable'
                ? 'account:services.enableNamed'
                : 'account:services.requestNamed',
              { name: service.name },
            )}
            data-testid="service-enable"
          >
            {t(
              service.action === 'enable' ? 'account:services.enable' : 'account:services.request',
            )}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}

function ServiceGrid({ services }: { services: Service[] }) {
  return (
    <Box
      component="ul"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
        gap: 2,
        listStyle: 'none',
        p: 0,
        m: 0,
        mb: 4,
      }}
    >
      {services.map((service) => (
        <li key={service.id}>
          <ServiceCard service={service} />
        </li>
      ))}
    </Box>
  );
}

export default function ServicesPage() {
  const { t, i18n } = useTranslation();
  const services = usePlatformServices();
  const terms = useCguStatus();
  const [supportOpen, setSupportOpen] = useState(false);
  const list = services.data?.services ?? [];
  const mine = list.filter((service) => service.usable);
  const others = list.filter((service) => !service.usable);

  return (
    <Page title={t('account:services.title')}>
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 2,
          flexWrap: 'wrap',
          mb: 3,
        }}
      >
        <Typography>{t('account:services.intro')}</Typography>
        <Button variant="outlined" onClick={() => setSupportOpen(true)} data-testid="support-open">
          {t('account:support.open')}
        </Button>
      </Box>
      {services.isError && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
          {errorMessage(i18n, services.error)}
        </Alert>
      )}
      {services.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('common:loading')} />
        </Box>
      )}
      {services.data && (
        <>
          <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
            {t('account:services.mine')}
          </Typography>
          {mine.length === 0 ? (
            <Typography sx={{ mb: 4 }}>{t('account:services.noneMine')}</Typography>
          ) : (
            <ServiceGrid services={mine} />
          )}
          <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
            {t('account:services.available')}
          </Typography>
          {others.length === 0 ? (
            <Typography sx={{ mb: 4 }}>{t('account:services.noneAvailable')}</Typography>
          ) : (
            <ServiceGrid services={others} />
          )}
        </>
      )}
      <Paper variant="outlined" component="section" aria-labelledby="legal-title" sx={{ p: 3 }}>
        <Typography id="legal-title" variant="h5" component="h2" sx={{ mb: 2 }}>
          {t('account:legal.title')}
        </Typography>
        <Typography sx={{ mb: 1 }}>{t('account:legal.notice')}</Typography>
        <Typography sx={{ mb: 1 }}>{t('account:legal.data')}</Typography>
        {terms.data && (
          <Typography data-testid="terms-version">
            {t('account:legal.terms', {
              version: terms.data.version,
              date: formatLongDate(terms.data.publishedAt, i18n.language),
            })}
          </Typography>
        )}
        <Box
          component="ul"
          aria-label={t('account:legal.links')}
          sx={{ listStyle: 'none', p: 0, m: 0, mt: 2, display: 'grid', gap: 1 }}
        >
          {terms.data && (
            <li>
              <Link
                component={RouterLink}
                to={`/security/accept-cgu?version=${encodeURIComponent(terms.data.version)}`}
                data-testid="terms-read"
              >
                {t('account:legal.readTerms')}
              </Link>
            </li>
          )}
          {terms.data?.acceptedVersion && terms.data.acceptedVersion !== terms.data.version && (
            <li>
              <Link
                component={RouterLink}
                to={`/security/accept-cgu?version=${encodeURIComponent(terms.data.acceptedVersion)}`}
                data-testid="terms-accepted"
              >
                {t('security:cgu.readAccepted', { version: isolate(terms.data.acceptedVersion) })}
              </Link>
            </li>
          )}
          {LEGAL_LINKS.map((link) => (
            <li key={link.to}>
              <Link component={RouterLink} to={link.to}>
                {t(link.labelKey)}
              </Link>
            </li>
          ))}
        </Box>
      </Paper>
      <SupportDialog open={supportOpen} onClose={() => setSupportOpen(false)} />
    </Page>
  );
}
