import type { PublicConfig } from '@hygie/domain';

/** A built index.html's shape, for the pages the server draws (app/server-render.tsx). */
export const TEMPLATE = `<!doctype html>
<html lang="fr" dir="ltr">
  <head>
    <meta name="theme-color" content="#1976D2" />
    <title>Hygie</title>
    <script type="module" crossorigin src="/assets/index.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

/** A configuration without identity providers. */
export const CONFIG: PublicConfig = {
  release: 'test',
  sentryDsn: null,
  sentryEnvironment: 'test',
  xsrfCookieName: 'XSRF-TOKEN',
  contactEmail: 'contact@hygie.test',
  sessionWarningSeconds: 60,
  identityProviders: [],
};
