import type { i18n as I18n } from 'i18next';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * A wait given in seconds, in words a person reads at a glance and in the language's plural
 * forms: "45 secondes" under a minute, then whole minutes rounded up ("50 minutes", never
 * "2980 secondes"), then hours and minutes ("1 heure", "1 heure et 5 minutes").
 */
export function waitInWords(i18n: I18n, seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < MINUTE) return i18n.t('wait:seconds', { count: whole });
  const minutes = Math.ceil(whole / MINUTE);
  if (minutes < HOUR / MINUTE) return i18n.t('wait:minutes', { count: minutes });
  const hours = Math.floor(minutes / (HOUR / MINUTE));
  const rest = minutes % (HOUR / MINUTE);
  const inHours = i18n.t('wait:hours', { count: hours });
  if (rest === 0) return inHours;
  return i18n.t('wait:hoursAndMinutes', {
    hours: inHours,
    minutes: i18n.t('wait:minutes', { count: rest }),
  });
}
