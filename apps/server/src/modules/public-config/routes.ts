import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicConfigSchema, RELEASE, SESSION_WARNING_SECONDS } from '@hygie/domain';
import type { Config } from '../../config.js';
import { franceConnectPlusEnabled } from '../identity-providers/service.js';

/** What the SPA reads before anything else (nothing secret). */
export const publicConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (
  app,
  { config },
) => {
  app.get(
    '/api/config',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['ops'],
        summary: 'Public client configuration',
        response: { 200: publicConfigSchema },
      },
    },
    async () => ({
      release: RELEASE,
      sentryDsn: config.sentry.dsn,
      sentryEnvironment: config.sentry.environment,
      xsrfCookieName: config.xsrfCookieName,
      contactEmail: config.contactEmail,
      sessionWarningSeconds: SESSION_WARNING_SECONDS,
      identityProviders: config.identityProviders.map((provider) => provider.id),
      // Said only when true (absent: false), so a configuration without it reads as before.
      ...(franceConnectPlusEnabled(config.identityProviders) ? { franceConnectPlus: true } : {}),
    }),
  );
};
