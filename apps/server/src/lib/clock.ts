/** The time source; tests swap it to move time forward. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that runs with the system but can be moved forward, for a server started for the
 * browser suite (HYGIE_TEST_CLOCK): waiting out a cooldown becomes one request instead of a minute.
 * It never goes back, so "later" stays later for every row already written.
 */
export class MovableClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.base.now() + this.offsetMs;
  }

  /** How far ahead of the underlying clock this one runs. */
  get offset(): number {
    return this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
  }
}

/** The calendar date, YYYY-MM-DD, that the moment `at` falls on in an IANA time zone. */
export function dateIn(at: number, timeZone: string): string {
  // Every zone's offset is whole minutes: its date turns at a minute's turn, and a date computed
  // holds for the rest of that minute (formatting it costs about 50 µs, on every settings read).
  const minute = Math.floor(at / 60_000);
  const last = lastDates.get(timeZone);
  if (last?.minute === minute) return last.date;
  const parts = dayFormat(timeZone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  const date = `${part('year')}-${part('month')}-${part('day')}`;
  lastDates.set(timeZone, { minute, date });
  return date;
}

/** The last date computed in each time zone, and the minute it was computed for. */
const lastDates = new Map<string, { minute: number; date: string }>();

// Building a formatter costs a hundred times what formatting does, and settings are read (with
// today's date) on most requests: one formatter per time zone for the process's life.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format;
}
