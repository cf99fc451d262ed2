/**
 * A date as words in the interface language ("1 mars 2025", "March 1, 2025", "1 مارس 2025"),
 * with Latin digits as elsewhere in the app; the text itself when it is not a date.
 */
export function formatLongDate(value: string, language: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(`${language}-u-nu-latn`, {
    dateStyle: 'long',
    timeZone: /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'UTC' : undefined,
  }).format(date);
}
