import { isOneOf } from '../one-of.js';
import { luhn } from './luhn.js';

/** Identifier types a professional may register with (spec §3). */
export const PROFESSIONAL_IDENTIFIER_TYPES = [
  'RPPS',
  'ADELI',
  'FINESS',
  'SIRET',
  'SIREN',
  'DRASS',
] as const;
export type ProfessionalIdentifierType = (typeof PROFESSIONAL_IDENTIFIER_TYPES)[number];

const DRASS_MAX_LENGTH = 20;
/** La Poste's establishments share one SIREN and use a sum-of-digits rule instead of Luhn. */
const LA_POSTE_SIREN = '356000000';
const LA_POSTE_HEAD_OFFICE_SIRET = '35600000000048';

const stripSpaces = (value: string): string => value.replace(/\s+/gu, '');

/** True when `type` is one of PROFESSIONAL_IDENTIFIER_TYPES. */
export function isProfessionalIdentifierType(type: unknown): type is ProfessionalIdentifierType {
  return isOneOf(PROFESSIONAL_IDENTIFIER_TYPES, type);
}

/** Canonical form of an identifier: DRASS trimmed, the others without whitespace and upper case. */
export function normalizeProfessionalIdentifier(
  type: ProfessionalIdentifierType,
  value: string,
): string {
  return type === 'DRASS' ? value.trim() : stripSpaces(value).toUpperCase();
}

/** True for an RPPS number: 11 digits passing Luhn (whitespace ignored). */
export function isValidRpps(value: string): boolean {
  const digits = stripSpaces(value);
  return digits.length === 11 && luhn(digits);
}

/** True for an ADELI number: 9 digits, format only as no check algorithm is public. */
export function isValidAdeli(value: string): boolean {
  return /^\d{9}$/.test(stripSpaces(value));
}

/** True for a FINESS number: 9 digits passing Luhn, or Corsican `2A`/`2B` + 7 digits. */
export function isValidFiness(value: string): boolean {
  const finess = stripSpaces(value).toUpperCase();
  if (/^2[AB]\d{7}$/.test(finess)) return true;
  return finess.length === 9 && luhn(finess);
}

/** True for a SIREN number: 9 digits passing Luhn (whitespace ignored). */
export function isValidSiren(value: string): boolean {
  const digits = stripSpaces(value);
  return digits.length === 9 && luhn(digits);
}

/** True for a SIRET number: 14 digits passing Luhn, or La Poste's sum-of-digits rule. */
export function isValidSiret(value: string): boolean {
  const digits = stripSpaces(value);
  if (!/^\d{14}$/.test(digits)) return false;
  if (digits.startsWith(LA_POSTE_SIREN) && digits !== LA_POSTE_HEAD_OFFICE_SIRET) {
    let sum = 0;
    for (const digit of digits) sum += Number(digit);
    return sum % 5 === 0;
  }
  return luhn(digits);
}

/** True for a legacy DRASS number: non-empty and at most 20 characters once trimmed. */
export function isValidDrass(value: string): boolean {
  const length = [...value.trim()].length;
  return length >= 1 && length <= DRASS_MAX_LENGTH;
}

const VALIDATORS: Record<ProfessionalIdentifierType, (value: string) => boolean> = {
  RPPS: isValidRpps,
  ADELI: isValidAdeli,
  FINESS: isValidFiness,
  SIRET: isValidSiret,
  SIREN: isValidSiren,
  DRASS: isValidDrass,
};

/** True when `value` is a valid identifier of the given type (false for an unknown type). */
export function isValidProfessionalIdentifier(type: string, value: string): boolean {
  return isProfessionalIdentifierType(type) && VALIDATORS[type](value);
}

/**
 * Reads a national professional id as typed at login: `8` + RPPS or `0` + ADELI.
 * Returns the underlying identifier, or null when the value is neither.
 */
export function parseNationalProfessionalId(
  value: string,
): { type: 'RPPS' | 'ADELI'; value: string } | null {
  const id = stripSpaces(value);
  const rest = id.slice(1);
  if (/^8\d{11}$/.test(id) && isValidRpps(rest)) return { type: 'RPPS', value: rest };
  if (/^0\d{9}$/.test(id)) return { type: 'ADELI', value: rest };
  return null;
}
