// The translation namespaces (src/locales/<language>/<namespace>.json); no imports, so that the
// build configuration reads them too.

export const NAMESPACES = [
  'common',
  'errors',
  'validation',
  'security',
  'account',
  'oauth',
  'biometrics',
  'admin',
  'self-service',
  'legal',
  'my-data',
  'wait',
] as const;

/**
 * What the first screens need (sign-in and the other security screens, the footer and the legal
 * pages): `main.tsx` loads these before the first render. The others (the signed-in area's, the
 * administration's, the OAuth error page's) come with the pages that use them: their routes wait
 * for `loadAllNamespaces()` (routes.tsx). The build puts a language's first namespaces in one
 * chunk (vite.config.ts): one request instead of one per namespace.
 */
export const FIRST_NAMESPACES = [
  'common',
  'errors',
  'validation',
  'security',
  'account',
  'biometrics',
  'legal',
  'wait',
] as const;
