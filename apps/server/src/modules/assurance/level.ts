import type { AssuranceLevel, AssuranceMapping } from '@hygie/domain';
import { REQUIRED_LEVELS } from '@hygie/domain';

/**
 * The level of assurance of a sign-in: the one rule (docs/oidc.md, "Levels of assurance"). The
 * session records its methods (`amr`: `pwd`, `otp` for a code by e-mail, `sms`, `totp` for the
 * authenticator app, `hwk`/`swk` and `user` for a key that verified its user, `ext` for an
 * upstream provider) and the upstream provider's `acr` (`psc:eidas3`); a mapping says which sets
 * of methods reach which level. The portal's default mapping is below; the operator may replace
 * it (setting ASSURANCE_MAPPING, checked by `mappingProblem`).
 */

/** What a session recorded of how its user authenticated. */
export interface RecordedAuthentication {
  /** The recorded methods, space-separated; null for a session from before they were recorded. */
  amr: string | null;
  /** When the second factor was passed (how a session without `amr` says it had two). */
  mfa_verified_at: number | null;
  /** The upstream provider's `acr`, as `<provider>:<acr>`; null without an upstream sign-in. */
  upstream_acr: string | null;
}

// RFC 8176 method references (and `totp`, the portal's own name for the authenticator app's
// code) by kind of factor: something known, held, or been — and `ext`, a sign-in at an upstream
// provider, a factor of its own: the portal's code after it makes two.
const FACTOR_KINDS = [
  new Set(['pwd', 'pin', 'kba']),
  new Set(['otp', 'sms', 'tel', 'hwk', 'swk', 'totp', 'rec']),
  new Set(['user', 'fpt', 'face', 'iris', 'retina', 'vbm']),
  new Set(['ext']),
];

/** The methods a session may record, and `mfa`: two factors of different kinds. */
export const RECORDED_METHODS: readonly string[] = [...FACTOR_KINDS.flatMap((k) => [...k]), 'mfa'];

/** The upstream providers whose `acr` a mapping may name (`<provider>:<acr>`). */
const UPSTREAM_PROVIDERS = ['psc', 'franceconnect'];

/**
 * The portal's default mapping. `low`: two factors of different kinds (`mfa`: password + a code
 * by e-mail or SMS, a key + a code…). `substantial`: a key that verified its user (passkey,
 * native key); the authenticator app after a password, a key or an upstream sign-in; Pro Santé
 * Connect below eidas3 (the e-CPS app); FranceConnect+ eidas2. `high`: Pro Santé Connect at
 * eidas3 (the CPS card); FranceConnect+ eidas3.
 */
export const DEFAULT_ASSURANCE_MAPPING: AssuranceMapping = {
  low: [['mfa']],
  substantial: [
    ['hwk', 'user'],
    ['swk', 'user'],
    ['pwd', 'totp'],
    ['hwk', 'totp'],
    ['ext', 'totp'],
    ['psc:eidas1'],
    ['psc:eidas2'],
    ['franceconnect:eidas2'],
  ],
  high: [['psc:eidas3'], ['franceconnect:eidas3']],
};

/**
 * The session's methods as the mapping reads them: the recorded ones, `mfa` when they are of two
 * kinds, and the upstream `<provider>:<acr>`. A session from before methods were recorded says
 * `pwd`, with `mfa` if it passed the second factor.
 */
export function recordedMethods(recorded: RecordedAuthentication): string[] {
  const methods = recorded.amr
    ? [...new Set(recorded.amr.split(' ').filter(Boolean))]
    : recorded.mfa_verified_at
      ? ['pwd', 'mfa']
      : ['pwd'];
  const kinds = FACTOR_KINDS.filter((kind) => methods.some((m) => kind.has(m))).length;
  if (kinds >= 2 && !methods.includes('mfa')) methods.push('mfa');
  if (recorded.upstream_acr) methods.push(recorded.upstream_acr);
  return methods;
}

/** The level reached: the highest whose mapping has a set of methods the session holds all of. */
export function assuranceLevel(
  recorded: RecordedAuthentication,
  mapping: AssuranceMapping = DEFAULT_ASSURANCE_MAPPING,
): AssuranceLevel {
  const methods = new Set(recordedMethods(recorded));
  for (const level of [...REQUIRED_LEVELS].reverse()) {
    if (mapping[level].some((set) => set.every((method) => methods.has(method)))) return level;
  }
  return 'one_factor';
}

/**
 * The first method of a mapping the portal never records (a typo would silently never match), or
 * null when every one is known: a recorded method, or `<provider>:<acr>` of a known provider.
 */
export function mappingProblem(mapping: AssuranceMapping): string | null {
  for (const level of REQUIRED_LEVELS) {
    for (const method of mapping[level].flat()) {
      const [provider, acr, ...rest] = method.split(':');
      const upstream =
        provider !== undefined && UPSTREAM_PROVIDERS.includes(provider) && !!acr && !rest.length;
      if (!RECORDED_METHODS.includes(method) && !upstream) return method;
    }
  }
  return null;
}
