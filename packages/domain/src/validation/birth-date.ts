/** A birth date as the INS stores it: an unknown day or month stays null, never invented. */
export interface BirthDate {
  year: number;
  month: number | null;
  day: number | null;
  /** `YYYY-MM-DD`, with `00` for an unknown month or day. */
  iso: string;
}

const MIN_YEAR = 1900;
const UI_DATE_REGEX = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads a DD/MM/YYYY birth date: a real calendar date from 1900 to `today` (local time), where
 * `00` stands for an unknown day (00/MM/YYYY) or an unknown day and month (00/00/YYYY).
 * Returns null for anything else, including a known day in an unknown month.
 */
export function parseBirthDate(value: string, today: Date = new Date()): BirthDate | null {
  const match = UI_DATE_REGEX.exec(value.trim());
  if (!match) return null;
  const [, dd = '', mm = '', yyyy = ''] = match;
  const day = Number(dd);
  const month = Number(mm);
  const year = Number(yyyy);
  if (year < MIN_YEAR || month > 12) return null;
  if (month === 0 && day !== 0) return null;
  if (month !== 0 && day > daysInMonth(year, month)) return null;

  // Compare as YYYYMMDD; an unknown part counts as its earliest value, so a date that may lie in
  // the past is accepted (00/MM of the current month, 00/00 of the current year).
  const todayKey = today.getFullYear() * 10000 + (today.getMonth() + 1) * 100 + today.getDate();
  if (year * 10000 + month * 100 + day > todayKey) return null;

  return {
    year,
    month: month === 0 ? null : month,
    day: day === 0 ? null : day,
    iso: `${yyyy}-${mm}-${dd}`,
  };
}

/** True when `value` is an acceptable DD/MM/YYYY birth date (see parseBirthDate). */
export function isValidBirthDate(value: string, today: Date = new Date()): boolean {
  return parseBirthDate(value, today) !== null;
}
