import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { IDP_ERRORS, isOneOf, safeInternalPath, type IdpError } from '@hygie/domain';
import { usePublicConfig } from '../../lib/config';

/** The official wording of the known providers' buttons; another provider is named by its id. */
const KNOWN = ['psc', 'franceconnect'] as const;

/**
 * Where a provider's button starts the sign-in: a full navigation to the server, which redirects
 * to the provider and back (docs/identity-providers.md), then to the page asked for, if any.
 */
function startUrl(provider: string, target: string | null): string {
  const query = target ? `?target_uri=${encodeURIComponent(target)}` : '';
  return `/api/idp/${encodeURIComponent(provider)}/start${query}`;
}

/** Why the last provider sign-in came back here (`?idp_error=`), in words. */
export function IdentityProviderError() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const config = usePublicConfig();
  const code = params.get('idp_error');
  if (!isOneOf(IDP_ERRORS, code)) return null;
  return (
    <Alert
      severity={code === 'cancelled' ? 'info' : 'error'}
      sx={{ mb: 3 }}
      data-testid="idp-error"
    >
      {message(t, code, config?.contactEmail ?? '')}
    </Alert>
  );
}

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

function message(
  t: ReturnType<typeof useTranslation>['t'],
  code: IdpError,
  contactEmail: string,
): string {
  switch (code) {
    case 'cancelled':
    case 'refused':
    case 'not_linked':
      return t(`security:login.idp.errors.${code}`);
    case 'identity_provider_unavailable':
      return `${t('errors:identity_provider_unavailable')} ${t('security:login.idp.retry')}`;
    default:
      return t(`errors:${code}`, { contactEmail });
  }
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
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {providers.map((provider) => (
          <Box key={provider} sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
            <Button
              href={startUrl(provider, target)}
              variant="outlined"
              size="large"
              fullWidth
              data-testid={`idp-${provider}`}
            >
              {isOneOf(KNOWN, provider)
                ? t(`security:login.idp.${provider}`)
                : t('security:login.idp.other', { name: provider })}
            </Button>
            {provider === 'franceconnect' && (
              <Link
                href="https://franceconnect.gouv.fr/"
                target="_blank"
                rel="noopener noreferrer"
                sx={{ alignSelf: 'center' }}
              >
                {t('security:login.idp.whatIsFranceConnect')}
              </Link>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
