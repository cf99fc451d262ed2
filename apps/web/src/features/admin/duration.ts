import { DURATION_UNITS, splitDuration, type DurationUnit, type Setting } from '@hygie/domain';

const SECONDS_PER_DAY = DURATION_UNITS.days;

export function isDurationUnit(value: string): value is DurationUnit {
  return Object.hasOwn(DURATION_UNITS, value);
}

/** The units offered for a setting: every unit for seconds, days and longer for days. */
export function unitsFor(setting: Pick<Setting, 'unit'>): DurationUnit[] {
  const all = Object.keys(DURATION_UNITS).filter(isDurationUnit);
  return setting.unit === 'days'
    ? all.filter((unit) => DURATION_UNITS[unit] >= SECONDS_PER_DAY)
    : all;
}

/** A setting's value (in its own unit) as an amount and the largest exact unit. */
export function toAmount(
  setting: Pick<Setting, 'unit'>,
  value: number,
): { amount: number; unit: DurationUnit } {
  const seconds = setting.unit === 'days' ? value * SECONDS_PER_DAY : value;
  return splitDuration(seconds);
}

/** An amount and unit back in the setting's unit; null when not a whole number of it. */
export function fromAmount(
  setting: Pick<Setting, 'unit'>,
  amount: number,
  unit: DurationUnit,
): number | null {
  const seconds = amount * DURATION_UNITS[unit];
  const value = setting.unit === 'days' ? seconds / SECONDS_PER_DAY : seconds;
  return Number.isSafeInteger(value) ? value : null;
}

const INTL_UNITS: Record<DurationUnit, string> = {
  years: 'year',
  months: 'month',
  days: 'day',
  hours: 'hour',
  minutes: 'minute',
  seconds: 'second',
};

/** "3 mois", "90 days", "3 أشهر" with Latin digits. */
export function formatDuration(
  setting: Pick<Setting, 'unit'>,
  value: number,
  language: string,
): string {
  const { amount, unit } = toAmount(setting, value);
  return new Intl.NumberFormat(`${language}-u-nu-latn`, {
    style: 'unit',
    unit: INTL_UNITS[unit],
    unitDisplay: 'long',
  }).format(amount);
}
