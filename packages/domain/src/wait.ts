const MINUTE = 60;
const HOUR = 60 * MINUTE;

export type WaitUnit = 'seconds' | 'minutes' | 'hours';

/** One amount of a wait in words: a count of one unit, said with the language's plural form. */
export interface WaitPart {
  unit: WaitUnit;
  count: number;
}

/**
 * A wait given in seconds, in the units a person reads at a glance: seconds under a minute, then
 * whole minutes rounded up (50 minutes, never 2980 seconds), then hours and the minutes left (one
 * part, or two: hours then minutes). Never less than one second.
 */
export function waitParts(seconds: number): [WaitPart] | [WaitPart, WaitPart] {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < MINUTE) return [{ unit: 'seconds', count: whole }];
  const minutes = Math.ceil(whole / MINUTE);
  if (minutes < HOUR / MINUTE) return [{ unit: 'minutes', count: minutes }];
  const hours = { unit: 'hours', count: Math.floor(minutes / (HOUR / MINUTE)) } as const;
  const rest = minutes % (HOUR / MINUTE);
  return rest === 0 ? [hours] : [hours, { unit: 'minutes', count: rest }];
}
