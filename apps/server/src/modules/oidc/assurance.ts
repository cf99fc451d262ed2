import type { SessionRow } from '../../db/schema.js';

/**
 * The ID token's `acr` (docs/oidc.md): one factor, or two factors of different kinds. Platforms
 * that need two factors check it (a trusted browser skips the second factor: one factor then).
 */
export const ACR = {
  oneFactor: 'urn:hygie:loa:1',
  twoFactors: 'urn:hygie:loa:2',
} as const;

// RFC 8176 method references by kind of factor: something known, held, or been.
const FACTOR_KINDS = [
  new Set(['pwd', 'pin', 'kba']),
  new Set(['otp', 'sms', 'tel', 'hwk', 'swk']),
  new Set(['user', 'fpt', 'face', 'iris', 'retina', 'vbm']),
];

/**
 * How the session's user authenticated, as the ID token's `amr` (RFC 8176): the methods recorded
 * at sign-in, with `mfa` when they are of two kinds. A session from before methods were recorded
 * says `pwd`, and `mfa` if it passed the second factor.
 */
export function amrOf(session: Pick<SessionRow, 'amr' | 'mfa_verified_at'>): string[] {
  if (!session.amr) return session.mfa_verified_at ? ['pwd', 'mfa'] : ['pwd'];
  const methods = [...new Set(session.amr.split(' ').filter(Boolean))];
  const kinds = FACTOR_KINDS.filter((kind) => methods.some((m) => kind.has(m))).length;
  return kinds >= 2 ? [...methods, 'mfa'] : methods;
}

/** The `acr` that `amr` earns. */
export function acrOf(amr: readonly string[]): string {
  return amr.includes('mfa') ? ACR.twoFactors : ACR.oneFactor;
}
