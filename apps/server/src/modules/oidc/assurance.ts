import { z } from 'zod';
import type { AssuranceLevel } from '@hygie/domain';
import { meetsLevel } from '@hygie/domain';
import type { RecordedAuthentication } from '../assurance/level.js';
import { recordedMethods } from '../assurance/level.js';

/**
 * The ID token's `acr` (docs/oidc.md): the session's level of assurance. `urn:hygie:loa:2`, the
 * value for two factors before levels existed, is still accepted in requests as an alias of
 * `low` (and returned to a platform that asks for it), so platforms registered before keep working.
 */
export const ACR = {
  oneFactor: 'urn:hygie:loa:1',
  low: 'urn:hygie:loa:low',
  substantial: 'urn:hygie:loa:substantial',
  high: 'urn:hygie:loa:high',
  twoFactors: 'urn:hygie:loa:2',
} as const;

/** What discovery advertises (`acr_values_supported`): the value of each level. */
export const ACR_VALUES_SUPPORTED: readonly string[] = [
  ACR.oneFactor,
  ACR.low,
  ACR.substantial,
  ACR.high,
];

const LEVEL_OF_ACR: Readonly<Record<string, AssuranceLevel>> = {
  [ACR.oneFactor]: 'one_factor',
  [ACR.low]: 'low',
  [ACR.substantial]: 'substantial',
  [ACR.high]: 'high',
  [ACR.twoFactors]: 'low',
};

/** The `acr` of a level. */
export function acrOfLevel(level: AssuranceLevel): string {
  return level === 'one_factor' ? ACR.oneFactor : ACR[level];
}

/**
 * How the session's user authenticated, as the ID token's `amr` (RFC 8176): the recorded methods
 * with `mfa` when they are of two kinds. The authenticator app's code is `otp` there, like a code
 * by e-mail (the session records which: the level differs); the upstream `acr` is not a method.
 */
export function amrOf(session: Pick<RecordedAuthentication, 'amr' | 'mfa_verified_at'>): string[] {
  const methods = recordedMethods({ ...session, upstream_acr: null })
    .filter((method) => !method.includes(':'))
    .map((method) => (method === 'totp' ? 'otp' : method));
  return [...new Set(methods)];
}

/**
 * The `acr` values a platform asks for that the portal knows: from `acr_values` (voluntary, OIDC
 * Core §3.1.2.1) and an `acr` the `claims` parameter marks essential (§5.5.1.1).
 */
export function requestedAcrs(params: { acr_values?: unknown; claims?: unknown }): string[] {
  const values = typeof params.acr_values === 'string' ? params.acr_values.split(' ') : [];
  values.push(...essentialAcrs(params.claims));
  return values.filter((value) => Object.prototype.hasOwnProperty.call(LEVEL_OF_ACR, value));
}

/**
 * The lowest level a platform accepts from what it asked for (any listed value is acceptable);
 * null when it asked for none the portal knows.
 */
export function requestedLevel(params: {
  acr_values?: unknown;
  claims?: unknown;
}): AssuranceLevel | null {
  const levels = requestedAcrs(params).map((value) => LEVEL_OF_ACR[value] ?? 'one_factor');
  if (!levels.length) return null;
  return levels.reduce((lowest, level) => (meetsLevel(level, lowest) ? lowest : level));
}

/**
 * The level a sign-in to a platform needs: the highest of the platform's minimum and of what the
 * request asks for; null when neither asks for anything.
 */
export function levelNeeded(
  platformMinimum: AssuranceLevel | null,
  params: { acr_values?: unknown; claims?: unknown },
): AssuranceLevel | null {
  const requested = requestedLevel(params);
  if (!platformMinimum) return requested;
  if (!requested) return platformMinimum;
  return meetsLevel(requested, platformMinimum) ? requested : platformMinimum;
}

/**
 * The ID token's `acr` for a session at `level`: the highest value the platform asked for that
 * the level meets, else the level's own value.
 */
export function acrFor(level: AssuranceLevel, requested: readonly string[]): string {
  let best: string | null = null;
  for (const value of requested) {
    const valueLevel = LEVEL_OF_ACR[value];
    if (!valueLevel || !meetsLevel(level, valueLevel)) continue;
    if (best === null || !meetsLevel(LEVEL_OF_ACR[best] ?? 'one_factor', valueLevel)) best = value;
  }
  return best ?? acrOfLevel(level);
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
