import { IDP_ERRORS, isOneOf, type IdpError } from '@hygie/domain';
import { useEnvironment, type Texts } from '../lib/environment';
import { PlainAlert } from './plain/alert';

function message(t: Texts['t'], code: IdpError, contactEmail: string): string {
  switch (code) {
    case 'cancelled':
    case 'refused':
    case 'not_linked':
      return t(`login:idp.errors.${code}`);
    case 'identity_provider_unavailable':
      return `${t('errors:identity_provider_unavailable')} ${t('login:idp.retry')}`;
    default:
      return t(`errors:${code}`, { contactEmail });
  }
}

/**
 * Why the last provider sign-in came back here (`?idp_error=`), in words: on the login page, and
 * on the registration choice screen for a sign-in started there.
 */
export function IdentityProviderError() {
  const { texts, useSearchParams, usePublicConfig } = useEnvironment();
  const { t } = texts;
  const params = useSearchParams();
  const config = usePublicConfig();
  const code = params.get('idp_error');
  if (!isOneOf(IDP_ERRORS, code)) return null;
  return (
    <PlainAlert
      severity={code === 'cancelled' ? 'info' : 'error'}
      className="hy-mb-3"
      data-testid="idp-error"
    >
      {message(t, code, config?.contactEmail ?? '')}
    </PlainAlert>
  );
}
