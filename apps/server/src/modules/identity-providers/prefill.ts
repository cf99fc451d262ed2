import type { PendingIdentity } from '@hygie/domain';
import { isValidProfessionalIdentifier, normalizeIdentityName } from '@hygie/domain';
import type { UpstreamIdentity } from './claims.js';

/**
 * The RPPS nomenclature's professions (TRE_G15 "Profession"), by the code Pro Santé Connect sends
 * in `SubjectRefPro.exercices[].codeProfession`.
 */
const PROFESSIONS: Record<string, string> = {
  '10': 'Médecin',
  '21': 'Pharmacien',
  '26': 'Audioprothésiste',
  '28': 'Opticien-lunetier',
  '40': 'Chirurgien-dentiste',
  '50': 'Sage-femme',
  '60': 'Infirmier',
  '69': 'Infirmier psychiatrique',
  '70': 'Masseur-kinésithérapeute',
  '80': 'Pédicure-podologue',
  '81': 'Orthoprothésiste',
  '91': 'Orthophoniste',
  '92': 'Orthoptiste',
  '94': 'Ergothérapeute',
  '95': 'Diététicien',
  '96': 'Psychomotricien',
  '98': 'Manipulateur ERM',
};

/** The first profession of the nomenclature a professional holds, by its name; null if none known. */
export function professionOf(codes: readonly string[]): string | null {
  for (const code of codes) {
    const name = PROFESSIONS[code];
    if (name) return name;
  }
  return null;
}

/** YYYY-MM-DD (FranceConnect's `birthdate`) as the forms write it (DD/MM/YYYY); null otherwise. */
function formDate(iso: string | null): string | null {
  const match = iso === null ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : null;
}

/**
 * FranceConnect's `preferred_username`, the used family name (nom d'usage), when it is not the
 * birth name itself (FranceConnect sends the birth name again for a person without one): the
 * profile's `lastNameUsed`. Null otherwise.
 */
export function usedFamilyNameOf(identity: UpstreamIdentity): string | null {
  const used = identity.pivot?.usedFamilyName ?? null;
  if (used === null || normalizeIdentityName(used) === '') return null;
  const birth = identity.familyName;
  if (birth !== null && normalizeIdentityName(used) === normalizeIdentityName(birth)) return null;
  return used;
}

/**
 * What a registration takes from a provider's identity — never more: Pro Santé Connect's names,
 * RPPS and profession; FranceConnect's names and pivot (birth date, sex, birthplace: the INSEE
 * commune code for someone born in France, else the INSEE country code, as the linking compares)
 * and the used family name when it differs from the birth name.
 */
export function assertedFields(identity: UpstreamIdentity): {
  profile: PendingIdentity['profile'];
  asserted: PendingIdentity['asserted'];
} {
  const names = { firstName: identity.givenName, lastName: identity.familyName };
  if (identity.professional) {
    const { rpps, professions } = identity.professional;
    return {
      profile: 'professional',
      asserted: {
        ...names,
        birthName: null,
        birthDate: null,
        sex: null,
        birthPlaceInsee: null,
        identifier:
          rpps !== null && isValidProfessionalIdentifier('RPPS', rpps)
            ? { type: 'RPPS', value: rpps }
            : null,
        job: professionOf(professions),
        lastNameUsed: null,
      },
    };
  }
  const pivot = identity.pivot;
  const bornAbroad = pivot?.birthCountry != null && pivot.birthCountry !== '99100';
  return {
    profile: 'patient',
    asserted: {
      ...names,
      // FranceConnect's family_name is the birth name.
      birthName: identity.familyName,
      birthDate: formDate(pivot?.birthDate ?? null),
      sex: pivot?.gender ?? null,
      birthPlaceInsee: (bornAbroad ? pivot?.birthCountry : pivot?.birthPlace) ?? null,
      identifier: null,
      job: null,
      lastNameUsed: usedFamilyNameOf(identity),
    },
  };
}
