import type { TextSource } from './environment';
import { waitParts } from '@hygie/domain';

/**
 * A wait given in seconds, in words a person reads at a glance and in the language's plural
 * forms (the units are the domain's `waitParts`): "45 secondes" under a minute, then whole minutes
 * rounded up ("50 minutes", never "2980 secondes"), then hours and minutes ("1 heure", "1 heure et
 * 5 minutes").
 */
export function waitInWords(i18n: TextSource, seconds: number): string {
  const [first, second] = waitParts(seconds).map((part) =>
    i18n.t(`wait:${part.unit}`, { count: part.count }),
  );
  if (second === undefined) return first ?? '';
  return i18n.t('wait:hoursAndMinutes', { hours: first, minutes: second });
}
