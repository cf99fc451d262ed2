import { LIMITS } from '../constants.js';

/**
 * Letters (any script, accents precomposed or combining), with single spaces, hyphens and
 * apostrophes (' and ’) between them: "Jean-Pierre", "D'Artagnan", "Le Goff", "Zoë".
 */
const NAME_REGEX = /^[\p{L}\p{M}'’]+(?:[ -]+[\p{L}\p{M}'’]+)*$/u;
const HAS_LETTER = /\p{L}/u;

function isValidNameOfLength(value: string, min: number, max: number): boolean {
  const name = value.trim();
  const length = [...name].length;
  return length >= min && length <= max && NAME_REGEX.test(name) && HAS_LETTER.test(name);
}

/** True for a first name: 1 to 100 characters after trimming, letters, spaces, hyphens, apostrophes. */
export function isValidFirstName(value: string): boolean {
  return isValidNameOfLength(value, LIMITS.firstNameMin, LIMITS.firstNameMax);
}

/** True for a last name: same alphabet as first names, 1 to 100 characters after trimming. */
export function isValidName(value: string): boolean {
  return isValidNameOfLength(value, 1, LIMITS.nameMax);
}

/**
 * A name as identity traits are compared (INS rules: capitals without diacritics): accents and
 * other marks removed, upper case, hyphens and apostrophes read as spaces, spaces collapsed.
 * "Jean-Pierre", "JEAN PIERRE" and "jean  pierre" compare equal; "Zoé" and "ZOE" too.
 */
export function normalizeIdentityName(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[-'’]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
