/**
 * A date and time in the interface language ("1 mars 2025 à 14:05"), Latin digits; the text
 * itself when it is not a date.
 */
export function formatDateTime(value: string, language: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(`${language}-u-nu-latn`, {
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(date);
}
