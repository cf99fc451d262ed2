import type { MovableClock } from '../../lib/clock.js';

export interface ClockReading {
  /** The server's time, in milliseconds since the epoch (what rows are stamped with). */
  now: number;
  /** How far ahead of the system time the server runs. */
  offsetSeconds: number;
}

export function readClock(clock: MovableClock): ClockReading {
  return { now: clock.now(), offsetSeconds: clock.offset / 1000 };
}

/** Moves the server's time forward: every cooldown, expiry and lifetime sees the new time. */
export function advanceClock(clock: MovableClock, seconds: number): ClockReading {
  clock.advance(seconds * 1000);
  return readClock(clock);
}
