import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SiteFooter } from '../../components/site-footer';
import { useDocumentTitle } from '../../lib/document-title';
import { usePlatformName } from '../../lib/platform-name';

const MAX_DESCRIPTION_LENGTH = 200;
const MAX_PLATFORM_LENGTH = 100;

/** The platform's address when it is an absolute http(s) URL, else null (never javascript: …). */
function platformHref(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Standalone page for a platform sign-in that failed (`/oauth-error?error=…&error_description=…`). */
export default function OAuthErrorPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const error = params.get('error') ?? '';
  const description = (params.get('error_description') ?? '').slice(0, MAX_DESCRIPTION_LENGTH);
  // Each explained error has its own title and text; any other gets the generic ones.
  const kind =
    error === 'access_denied'
      ? 'accessDenied'
      : error === 'temporarily_unavailable'
        ? 'unavailable'
        : 'generic';
  // The platform is named from the registry by its client id, never from this page's address.
  const registered = usePlatformName(params.get('client_id'));
  const platform = (registered.data?.name ?? '').trim().slice(0, MAX_PLATFORM_LENGTH);
  const platformUrl = platform ? platformHref(registered.data?.url ?? null) : null;
  const title = t(`oauth:${kind}.title`);
  useDocumentTitle(title);

  return (
    <Box
      sx={{
        minHeight: '100vh',
        bgcolor: 'background.default',
        borderTop: 4,
        borderColor: 'primary.main',
      }}
    >
      <Container maxWidth="sm" sx={{ py: { xs: 2, sm: 6 } }}>
        <Box
          component="header"
          sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 3 }}
        >
          <BrandLogo />
          <LanguageSwitcher />
        </Box>
        <Paper
          component="main"
          id="main-content"
          tabIndex={-1}
          elevation={2}
          sx={{ p: { xs: 3, sm: 5 }, outline: 'none' }}
        >
          <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
            {title}
          </Typography>
          <Typography sx={{ mb: 2 }} data-testid="oauth-error-explanation">
            {t(`oauth:${kind}.description`)}
          </Typography>
          {platform && (
            <Typography sx={{ mb: 2, fontWeight: 500 }} data-testid="oauth-error-platform">
              {t('oauth:platform.cannotUse', { platform })}
            </Typography>
          )}
          {(error || description) && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
              {t('oauth:details')}{' '}
              <bdi data-testid="oauth-error-details">
                {[error, description].filter(Boolean).join(' — ')}
              </bdi>
            </Typography>
          )}
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            {platformUrl && (
              <Button
                href={platformUrl}
                variant="outlined"
                rel="noopener noreferrer"
                data-testid="oauth-error-platform-link"
              >
                {t('oauth:platform.back', { platform })}
              </Button>
            )}
            <Button component={RouterLink} to="/" variant="contained">
              {t('common:actions.backHome')}
            </Button>
          </Box>
        </Paper>
        <SiteFooter />
      </Container>
    </Box>
  );
}
