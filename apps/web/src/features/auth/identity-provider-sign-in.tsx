import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { isOneOf, safeInternalPath } from '@hygie/domain';
import { IdentityProviderButton } from '../../components/identity-provider-button';
import { usePublicConfig } from '../../lib/config';

/** The providers whose identity pre-fills a registration; another is named by its id. */
const KNOWN = ['psc', 'franceconnect'] as const;

/** The registration a known provider's identity pre-fills: a professional's, a patient's. */
const REGISTRATION: Readonly<Record<(typeof KNOWN)[number], string>> = {
  psc: '/security/register/professional',
  franceconnect: '/security/register/patient',
};

/**
 * Back from a provider with an identity linked to no account (`?idp_link=<provider>`): signing in
 * with the password links it to the account if it matches (docs/identity-providers.md); or an
 * account is created with it, pre-filled with what the provider asserted.
 */
export function IdentityProviderLinkNotice() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const provider = params.get('idp_link');
  if (!provider) return null;
  const name = isOneOf(KNOWN, provider)
    ? t(`account:identityLinks.providers.${provider}`)
    : provider;
  return (
    <Alert severity="info" role="status" sx={{ mb: 3 }} data-testid="idp-link">
      {t('security:login.idp.link', { name })}
      {isOneOf(KNOWN, provider) && (
        <Box sx={{ mt: 1.5 }}>
          <Button
            component={RouterLink}
            to={`${REGISTRATION[provider]}?idp=${provider}`}
            variant="outlined"
            size="small"
            // The alert's own text colour: the theme's primary on the alert's tinted background
            // falls short of the 4.5:1 contrast (axe, in the browser suite).
            color="inherit"
            data-testid="idp-register"
          >
            {t('security:login.idp.register')}
          </Button>
        </Box>
      )}
    </Alert>
  );
}

/** The enabled providers' sign-in buttons (none configured: nothing is shown). */
export function IdentityProviderSignIn() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const providers = usePublicConfig()?.identityProviders ?? [];
  if (providers.length === 0) return null;
  const target = params.get('target_uri') ?? safeInternalPath(params.get('redirect'));
  return (
    <Box sx={{ mt: 3 }} data-testid="identity-providers">
      <Divider sx={{ mb: 3 }}>{t('security:login.idp.or')}</Divider>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
        {providers.map((provider) => (
          <IdentityProviderButton key={provider} provider={provider} target={target} />
        ))}
      </Box>
    </Box>
  );
}
