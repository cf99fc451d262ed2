import { RELEASE, SESSION_WARNING_SECONDS, type PublicConfig } from '@hygie/domain';
import type { Config } from '../../config.js';
import { franceConnectPlusEnabled } from '../identity-providers/service.js';

/** What the web client reads before anything else (nothing secret): GET /api/config, drawn pages. */
export function publicConfigOf(config: Config): PublicConfig {
  return {
    release: RELEASE,
    sentryDsn: config.sentry.dsn,
    sentryEnvironment: config.sentry.environment,
    xsrfCookieName: config.xsrfCookieName,
    contactEmail: config.contactEmail,
    sessionWarningSeconds: SESSION_WARNING_SECONDS,
    identityProviders: config.identityProviders.map((provider) => provider.id),
    // Said only when true (absent: false), so a configuration without it reads as before.
    ...(franceConnectPlusEnabled(config.identityProviders) ? { franceConnectPlus: true } : {}),
  };
}
