/**
 * INSEE commune code (birthplace): department + 3 digits (Corsica 2A/2B), overseas 97x/98x, or
 * 99 + INSEE country code for people born abroad.
 */
export const INSEE_CODE_REGEX =
  /^(?:(?:0[1-9]|1\d|2[1-9]|[3-8]\d|9[0-5]|2[AB])\d{3}|97[1-8]\d\d|98[4-9]\d\d|99\d{3})$/;

/** Canonical form of a typed INSEE code: trimmed, upper case (`2a004` → `2A004`). */
export function normalizeInseeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** True when `code` is an INSEE commune code (surrounding whitespace and case ignored). */
export function isValidInseeCode(code: string): boolean {
  return INSEE_CODE_REGEX.test(normalizeInseeCode(code));
}
