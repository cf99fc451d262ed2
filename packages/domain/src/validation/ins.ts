/**
 * Structure of an INS matricule (NIR or NIA), domain-rules.md: sex, year, month (20–42 and 50–99
 * for an unknown month), birthplace (department + commune, 97x/98x overseas, 99 + country),
 * order number and key.
 */
export const INS_REGEX =
  /^[1-478]\d\d(0[1-9]|1[0-2]|[2-3]\d|4[0-2]|[5-9]\d)((0[1-9]|[1-8]\d|9[0-6]|2[AB])(00[1-9]|0[1-9]\d|[1-9]\d\d)|9[78]\d(0[1-9]|[1-9]\d)|99(00[1-9]|0[1-9]\d|[1-9]\d\d))(00[1-9]|0[1-9]\d|[1-9]\d\d)(0[1-9]|[1-8]\d|9[0-7])$/i;

/** Canonical form of a typed INS: whitespace removed, upper case (`2a` → `2A`). */
export function normalizeIns(value: string): string {
  return value.replace(/\s+/gu, '').toUpperCase();
}

/**
 * Key of an INS from its first 13 characters: 97 − (number mod 97), so 1–97.
 * Corsica's `2A`/`2B` in positions 6–7 count as `19`/`18`. Throws a RangeError on malformed input.
 */
export function insKey(first13: string): number {
  const body = first13.toUpperCase();
  const department = body.slice(5, 7);
  const digits =
    department === '2A' || department === '2B'
      ? `${body.slice(0, 5)}${department === '2A' ? '19' : '18'}${body.slice(7)}`
      : body;
  if (!/^\d{13}$/.test(digits)) {
    throw new RangeError('insKey expects 13 digits (2A/2B allowed in positions 6–7)');
  }
  // 13 digits stay below 2^53, so the Number arithmetic is exact.
  return 97 - (Number(digits) % 97);
}

/** True when `value` is an INS matricule: structure and key (spaces ignored, case-insensitive). */
export function isValidIns(value: string): boolean {
  const ins = normalizeIns(value);
  if (!INS_REGEX.test(ins)) return false;
  return insKey(ins.slice(0, 13)) === Number(ins.slice(13));
}
