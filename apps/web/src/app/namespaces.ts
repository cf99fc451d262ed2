// The translation namespaces (src/locales/<language>/<namespace>.json); no imports, so that the
// build configuration reads them too.

export const NAMESPACES = [
  'common',
  'errors',
  'validation',
  'login',
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

export type Namespace = (typeof NAMESPACES)[number];

/**
 * What the login page shows, with its layout (header, footer, language menu, identity providers'
 * and biometric buttons, the sign-in's error messages; `login` is the login page's own texts, the
 * other security screens' are in `security`): `main.tsx` loads these before the first
 * render. The other screens' routes name the namespaces they need beyond these, which load beside
 * their chunk (`lazyComponent(…, { namespaces })`, routes.tsx); `first-load.test.ts` checks both
 * against the keys the code uses. The build puts a language's first namespaces in one chunk
 * (vite.config.ts): one request instead of one per namespace.
 */
export const FIRST_NAMESPACES = [
  'common',
  'errors',
  'validation',
  'login',
  'biometrics',
  'wait',
] as const satisfies readonly Namespace[];
