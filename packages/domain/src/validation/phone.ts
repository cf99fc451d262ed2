import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

export type { CountryCode };

/**
 * Overseas mobiles typed in French national form (domain-rules.md): they are not +33 numbers but
 * belong to their department's calling code. Only these prefixes are redirected, so a number that
 * is simply wrong in France is never silently read as an overseas one.
 */
const OVERSEAS_MOBILE_PREFIXES: readonly (readonly [RegExp, CountryCode])[] = [
  [/^069[01]/, 'GP'],
  [/^0694/, 'GF'],
  [/^069[67]/, 'MQ'],
  // Réunion's metadata also holds Mayotte's 0639, both under +262.
  [/^0(?:69[23]|639)/, 'RE'],
];

function parseMobile(input: string, defaultCountry: CountryCode): string | null {
  // extract: false demands that the whole input is a number, not "call 06… after 6pm".
  const phone = parsePhoneNumberFromString(input, { defaultCountry, extract: false });
  if (!phone || phone.ext || !phone.isValid()) return null;
  // The full metadata tells mobiles from landlines; some plans (US…) cannot, and say so.
  const type = phone.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE' ? phone.number : null;
}

/**
 * E.164 form of `input` when it is a valid mobile number, else null. National numbers are read
 * in `defaultCountry` (for FR, 0690…/0694…/0696…/0692…/0639… go to their overseas code);
 * international ones (+590 …, 0033 …) keep their own country.
 */
export function normalizeMobilePhone(
  input: string,
  defaultCountry: CountryCode = 'FR',
): string | null {
  try {
    const phone = input.trim();
    const mobile = parseMobile(phone, defaultCountry);
    if (mobile !== null || defaultCountry !== 'FR') return mobile;
    const national = phone.replace(/[\s.()-]/gu, '');
    const overseas = OVERSEAS_MOBILE_PREFIXES.find(([prefix]) => prefix.test(national));
    return overseas ? parseMobile(phone, overseas[1]) : null;
  } catch {
    return null;
  }
}

/** True when `input` is a valid mobile number (FR by default, or in international form). */
export function isValidMobilePhone(input: string, defaultCountry: CountryCode = 'FR'): boolean {
  return normalizeMobilePhone(input, defaultCountry) !== null;
}

/** The countries of the French numbering plan: their numbers are dialled 0… from France. */
const FRENCH_PLAN: readonly CountryCode[] = ['FR', 'GP', 'GF', 'MQ', 'RE', 'YT', 'BL', 'MF', 'PM'];

function parseStored(e164: string) {
  try {
    return parsePhoneNumberFromString(e164.trim(), { extract: false });
  } catch {
    return undefined;
  }
}

/**
 * A stored (E.164) number as people read it: the national form for the French numbering plan
 * ("+33612345678" → "06 12 34 56 78", "+590690123456" → "0690 12 34 56"), the international
 * form with spaces for others ("+44 7400 123456"); anything unparseable as it is.
 */
export function formatPhone(e164: string): string {
  const phone = parseStored(e164);
  if (!phone) return e164;
  const country = phone.country;
  return country && FRENCH_PLAN.includes(country)
    ? phone.formatNational()
    : phone.formatInternational();
}

/** True when the stored number belongs to the French numbering plan (shown in national form). */
export function isFrenchPlanPhone(e164: string): boolean {
  const country = parseStored(e164)?.country;
  return !!country && FRENCH_PLAN.includes(country);
}
