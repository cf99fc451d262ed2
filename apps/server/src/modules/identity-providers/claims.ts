import { z } from 'zod';
import type { ClaimsMapperKind } from '../../config.js';

/** What the portal keeps of a provider's sign-in: its subject, then what the mapper read. */
export interface UpstreamIdentity {
  /** The ID token's `sub`: the link's key (FranceConnect's is pairwise, per client). */
  subject: string;
  givenName: string | null;
  familyName: string | null;
  /** Pro Santé Connect: the national professional id (8 + RPPS) and the professions held. */
  professional: { nationalId: string; rpps: string | null; professions: string[] } | null;
  /**
   * FranceConnect's identity pivot (birth date, sex, INSEE birthplace and birth country), and
   * its `preferred_username`: the used family name (nom d'usage), when the person has one.
   */
  pivot: {
    birthDate: string | null;
    gender: 'female' | 'male' | null;
    birthPlace: string | null;
    birthCountry: string | null;
    usedFamilyName: string | null;
  } | null;
}

const text = z.string().trim().min(1);
const optionalText = text.nullish().catch(null);

/** Pro Santé Connect's userinfo (the ANS's "SubjectRefPro" with its exercises). */
const pscClaims = z.object({
  SubjectNameID: text,
  given_name: optionalText,
  family_name: optionalText,
  SubjectRefPro: z
    .object({
      exercices: z
        .array(z.object({ codeProfession: z.string().nullish() }).loose())
        .nullish()
        .catch(null),
    })
    .loose()
    .nullish()
    .catch(null),
});

/** FranceConnect's identity pivot (OpenID standard claims, birthplace as an INSEE code). */
const franceConnectClaims = z.object({
  given_name: optionalText,
  family_name: optionalText,
  birthdate: optionalText,
  gender: z.enum(['female', 'male']).nullish().catch(null),
  birthplace: optionalText,
  birthcountry: optionalText,
  preferred_username: optionalText,
});

/** The national professional id of an RPPS is "8" followed by the 11-digit RPPS. */
const RPPS_NATIONAL_ID = /^8(\d{11})$/;

/**
 * Reads a provider's claims (the ID token's, then the userinfo's, which win). Null when a claim
 * the provider must send is missing (e.g. PSC without SubjectNameID): such a sign-in is refused.
 */
export function mapClaims(
  kind: ClaimsMapperKind,
  subject: string,
  claims: Record<string, unknown>,
): UpstreamIdentity | null {
  if (kind === 'psc') {
    const parsed = pscClaims.safeParse(claims);
    if (!parsed.success) return null;
    const { SubjectNameID, given_name, family_name, SubjectRefPro } = parsed.data;
    const professions = (SubjectRefPro?.exercices ?? []).flatMap((e) =>
      e.codeProfession ? [e.codeProfession] : [],
    );
    return {
      subject,
      givenName: given_name ?? null,
      familyName: family_name ?? null,
      professional: {
        nationalId: SubjectNameID,
        rpps: RPPS_NATIONAL_ID.exec(SubjectNameID)?.[1] ?? null,
        professions: [...new Set(professions)],
      },
      pivot: null,
    };
  }
  const parsed = franceConnectClaims.safeParse(claims);
  if (!parsed.success) return null;
  const c = parsed.data;
  return {
    subject,
    givenName: c.given_name ?? null,
    familyName: c.family_name ?? null,
    professional: null,
    pivot: {
      birthDate: c.birthdate ?? null,
      gender: c.gender ?? null,
      birthPlace: c.birthplace ?? null,
      birthCountry: c.birthcountry ?? null,
      usedFamilyName: c.preferred_username ?? null,
    },
  };
}

/** eIDAS levels of assurance, as both providers write them in `acr`. */
const EIDAS_LEVELS = ['eidas1', 'eidas2', 'eidas3'];

/**
 * The `acr` values that prove two factors. Every Pro Santé Connect means is two factors (the CPS
 * card and its PIN, the e-CPS app and its code), even at eidas1; FranceConnect's eidas1 may be
 * one password at the chosen provider, so only eidas2 and up (FranceConnect+) count.
 */
const TWO_FACTOR_ACRS: Record<ClaimsMapperKind, readonly string[]> = {
  psc: EIDAS_LEVELS,
  franceconnect: ['eidas2', 'eidas3'],
};

/**
 * Whether a sign-in with this `acr` counts as both factors: it reaches the configured level (the
 * lowest of the acr values asked for, an unknown value being only itself) and the provider's
 * means at that level are two factors.
 */
export function countsAsTwoFactors(
  kind: ClaimsMapperKind,
  acrValues: readonly string[],
  acr: unknown,
): boolean {
  if (typeof acr !== 'string' || !TWO_FACTOR_ACRS[kind].includes(acr)) return false;
  if (acrValues.includes(acr)) return true;
  const rank = EIDAS_LEVELS.indexOf(acr);
  const required = acrValues
    .map((value) => EIDAS_LEVELS.indexOf(value))
    .filter((level) => level >= 0);
  return rank >= 0 && required.length > 0 && rank >= Math.min(...required);
}

/**
 * Whether a FranceConnect provider is FranceConnect+: every level it asks for (`acr_values`) is
 * eidas2 or above, so every sign-in through it is a FranceConnect+ one.
 */
export function isFranceConnectPlus(kind: ClaimsMapperKind, acrValues: readonly string[]): boolean {
  return (
    kind === 'franceconnect' &&
    acrValues.length > 0 &&
    acrValues.every((value) => EIDAS_LEVELS.indexOf(value) >= 1)
  );
}
