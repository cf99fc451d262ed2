import type { PublicConfig } from '@hygie/domain';

/** A built index.html's shape, for the pages the server draws (app/server-render.tsx). */
export const TEMPLATE = `<!doctype html>
<html lang="fr" dir="ltr">
  <head>
    <meta name="theme-color" content="#1976D2" />
    <title>Hygie</title>
    <script type="module" crossorigin src="/assets/index.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index.css">
    <link rel="preload" as="font" type="font/woff2" href="/assets/roboto-latin-400-normal-a1.woff2" crossorigin="">
    <link rel="preload" as="font" type="font/woff2" href="/assets/roboto-latin-500-normal-b2.woff2" crossorigin="">
    <link rel="modulepreload" crossorigin="" href="/assets/island.js">
    <link rel="modulepreload" crossorigin="" href="/assets/first.js" data-client="whole">
    <script type="application/json" id="hy-first-translations">{"ar":"/assets/locales-ar.js","en":"/assets/locales-en.js","fr":"/assets/locales-fr.js"}</script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

/** A font face of the built style sheet, as the build writes it (fontsource, minified). */
function face(family: string, file: string, weight: number): string {
  return (
    `@font-face{font-family:${family};font-style:normal;font-display:swap;font-weight:${weight};` +
    `src:url(/assets/${file}.woff2)format("woff2"),url(/assets/${file}.woff)format("woff");` +
    `unicode-range:U+0-FF}`
  );
}

/** The built style sheets the template links, by address: fonts of each script, then rules. */
export const STYLESHEETS: Readonly<Record<string, string>> = {
  '/assets/index.css': [
    face('Roboto', 'roboto-cyrillic-400-normal-c3', 400),
    face('Roboto', 'roboto-latin-400-normal-a1', 400),
    face('Roboto', 'roboto-latin-500-normal-b2', 500),
    face('Roboto', 'roboto-latin-700-normal-d4', 700),
    face('Roboto', 'roboto-latin-ext-400-normal-e5', 400),
    face("'Noto Sans Arabic'", 'noto-sans-arabic-arabic-400-normal-f6', 400),
    face("'Noto Sans Arabic'", 'noto-sans-arabic-arabic-500-normal-g7', 500),
    face("'Noto Sans Arabic'", 'noto-sans-arabic-arabic-700-normal-h8', 700),
    face("'Noto Sans Arabic'", 'noto-sans-arabic-latin-400-normal-i9', 400),
    face("'Noto Sans Arabic'", 'noto-sans-arabic-math-400-normal-j0', 400),
    'body{margin:0;font-family:Roboto,"Noto Sans Arabic",sans-serif}',
    ".hy-page-title{font-size:2.125rem}.hy-quote::before{content:'</style><img src=x onerror=alert(2)>'}",
  ].join(''),
};

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
