import { describe, expect, it } from 'vitest';
import { MovableClock } from './clock.js';

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
