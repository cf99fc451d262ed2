import { describe, expect, it } from 'vitest';
import { dateIn, MovableClock } from './clock.js';

describe('the movable clock', () => {
  it('runs with the clock under it, plus what it was moved', () => {
    let base = 1_000;
    const clock = new MovableClock({ now: () => base });
    expect(clock.now()).toBe(1_000);
    clock.advance(60_000);
    base += 5;
    expect(clock.now()).toBe(61_005);
    expect(clock.offset).toBe(60_000);
  });

  it('never goes back', () => {
    const clock = new MovableClock({ now: () => 0 });
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(clock.now()).toBe(0);
  });
});

describe('the date in a time zone', () => {
  it('is the calendar day the moment falls on there, not in UTC', () => {
    const lateEvening = Date.parse('2027-03-14T23:30:00Z');
    expect(dateIn(lateEvening, 'UTC')).toBe('2027-03-14');
    expect(dateIn(lateEvening, 'Europe/Paris')).toBe('2027-03-15');
    expect(dateIn(Date.parse('2027-01-01T03:00:00Z'), 'America/New_York')).toBe('2026-12-31');
  });

  it('turns the date at local midnight, to the millisecond, in a zone a quarter-hour off', () => {
    // Kathmandu is UTC+05:45: its midnight falls at 18:15 UTC.
    const midnight = Date.parse('2027-03-14T18:15:00Z');
    expect(dateIn(midnight - 60_001, 'Asia/Kathmandu')).toBe('2027-03-14');
    expect(dateIn(midnight - 1, 'Asia/Kathmandu')).toBe('2027-03-14');
    expect(dateIn(midnight, 'Asia/Kathmandu')).toBe('2027-03-15');
    expect(dateIn(midnight + 59_999, 'Asia/Kathmandu')).toBe('2027-03-15');
    // The day before; UTC's date of the same moment is another.
    expect(dateIn(midnight - 1, 'UTC')).toBe('2027-03-14');
    expect(dateIn(midnight - 86_400_000, 'Asia/Kathmandu')).toBe('2027-03-14');
    expect(dateIn(midnight - 86_400_001, 'Asia/Kathmandu')).toBe('2027-03-13');
  });
});
