import { isOneOf, safeInternalPath } from '@hygie/domain';
import { PlainAlert, PlainDivider } from '../../components/plain/alert';
import { IdentityProviderButton } from '../../components/identity-provider-button';
import { buttonClasses } from '../../components/plain/button';
import { AppLink, useEnvironment } from '../../lib/environment';

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
  const { texts, useSearchParams } = useEnvironment();
  const { t } = texts;
  const params = useSearchParams();
  const provider = params.get('idp_link');
  if (!provider) return null;
  const name = isOneOf(KNOWN, provider) ? t(`common:identityProviders.${provider}`) : provider;
  return (
    <PlainAlert severity="info" role="status" className="hy-mb-3" data-testid="idp-link">
      {t('login:idp.link', { name })}
      {isOneOf(KNOWN, provider) && (
        <div className="hy-mt-1">
          <AppLink
            to={`${REGISTRATION[provider]}?idp=${provider}`}
            // The alert's own text colour: the theme's primary on the alert's tinted background
            // falls short of the 4.5:1 contrast (axe, in the browser suite).
            className={`${buttonClasses({ variant: 'outlined', color: 'inherit' })} hy-button-small`}
            data-testid="idp-register"
          >
            {t('login:idp.register')}
          </AppLink>
        </div>
      )}
    </PlainAlert>
  );
}

/** The enabled providers' sign-in buttons (none configured: nothing is shown). */
export function IdentityProviderSignIn() {
  const { texts, useSearchParams, usePublicConfig } = useEnvironment();
  const { t } = texts;
  const params = useSearchParams();
  const providers = usePublicConfig()?.identityProviders ?? [];
  if (providers.length === 0) return null;
  const target = params.get('target_uri') ?? safeInternalPath(params.get('redirect'));
  return (
    <div className="hy-mt-3" data-testid="identity-providers">
      <PlainDivider className="hy-mb-3">{t('login:idp.or')}</PlainDivider>
      <div className="hy-stack">
        {providers.map((provider) => (
          <IdentityProviderButton key={provider} provider={provider} target={target} />
        ))}
      </div>
    </div>
  );
}
