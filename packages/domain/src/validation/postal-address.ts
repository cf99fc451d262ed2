import { getCountries } from 'libphonenumber-js/max';

/** ISO 3166-1 alpha-2 codes of the countries (and territories) an address may be in. */
export const COUNTRY_CODES: readonly string[] = [...getCountries()].sort();

/** The country a postal address is in when none is given. */
export const DEFAULT_COUNTRY = 'FR';

/** Canonical form of a typed country code: trimmed, upper case. */
export function normalizeCountry(code: string): string {
  return code.trim().toUpperCase();
}

/** True when `code` is an ISO 3166-1 alpha-2 country code (surrounding whitespace and case ignored). */
export function isValidCountry(code: string): boolean {
  return COUNTRY_CODES.includes(normalizeCountry(code));
}

/** Canonical form of a typed postal code: trimmed, inner spaces single, upper case. */
export function normalizePostalCode(code: string): string {
  return code.trim().replace(/\s+/g, ' ').toUpperCase();
}

/**
 * True when `code` is a postal code of `country`: in France (overseas included) five digits;
 * elsewhere 2 to 10 letters, digits, spaces or hyphens starting with a letter or digit.
 */
export function isValidPostalCode(code: string, country: string): boolean {
  const normalized = normalizePostalCode(code);
  if (normalizeCountry(country) === 'FR') return /^\d{5}$/.test(normalized);
  return /^[A-Z0-9][A-Z0-9 -]{1,9}$/.test(normalized);
}
