import { z } from 'zod';
import type { SessionRow } from '../../db/schema.js';

/**
 * The ID token's `acr` (docs/oidc.md): one factor, or two factors of different kinds. Platforms
 * that need two factors check it (a trusted browser skips the second factor: one factor then).
 */
export const ACR = {
  oneFactor: 'urn:hygie:loa:1',
  twoFactors: 'urn:hygie:loa:2',
} as const;

// RFC 8176 method references by kind of factor: something known, held, or been — and `ext`, a
// sign-in at an upstream identity provider (docs/identity-providers.md), a factor of its own: the
// portal's code after it makes two. `rec`, a recovery code (not an RFC 8176 name), is something
// held: the sheet of codes, like NIST 800-63B's look-up secrets.
const FACTOR_KINDS = [
  new Set(['pwd', 'pin', 'kba']),
  new Set(['otp', 'sms', 'tel', 'hwk', 'swk', 'rec']),
  new Set(['user', 'fpt', 'face', 'iris', 'retina', 'vbm']),
  new Set(['ext']),
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

const LEVELS: readonly string[] = [ACR.oneFactor, ACR.twoFactors];

/**
 * The lowest level a platform accepts: from `acr_values` (voluntary, OIDC Core §3.1.2.1) and an
 * `acr` the `claims` parameter marks essential (§5.5.1.1). Values the portal does not issue are
 * ignored; none known, no requirement (0).
 */
export function requestedLevel(params: { acr_values?: unknown; claims?: unknown }): number {
  const values = typeof params.acr_values === 'string' ? params.acr_values.split(' ') : [];
  values.push(...essentialAcrs(params.claims));
  const levels = values.map((v) => LEVELS.indexOf(v) + 1).filter((level) => level > 0);
  return levels.length > 0 ? Math.min(...levels) : 0;
}

/** The level `amr` earns: 1 for one factor, 2 for two. */
export function levelOf(amr: readonly string[]): number {
  return LEVELS.indexOf(acrOf(amr)) + 1;
}

function essentialAcrs(claims: unknown): string[] {
  if (typeof claims !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(claims);
  } catch {
    return [];
  }
  const acr = essentialAcr.safeParse(parsed);
  if (!acr.success) return [];
  const request = acr.data.id_token?.acr;
  if (!request?.essential) return [];
  return [...(request.value ? [request.value] : []), ...(request.values ?? [])];
}

const essentialAcr = z.object({
  id_token: z
    .object({
      acr: z
        .object({
          essential: z.boolean().optional(),
          value: z.string().optional(),
          values: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});
