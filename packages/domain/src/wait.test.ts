import { describe, expect, it } from 'vitest';
import { waitParts } from './wait.js';

describe('a wait in units a person reads', () => {
  it.each([
    [0, [{ unit: 'seconds', count: 1 }]],
    [0.2, [{ unit: 'seconds', count: 1 }]],
    [59, [{ unit: 'seconds', count: 59 }]],
    [60, [{ unit: 'minutes', count: 1 }]],
    [61, [{ unit: 'minutes', count: 2 }]],
    [2980, [{ unit: 'minutes', count: 50 }]],
    [3541, [{ unit: 'hours', count: 1 }]],
    [
      3900,
      [
        { unit: 'hours', count: 1 },
        { unit: 'minutes', count: 5 },
      ],
    ],
    [7200, [{ unit: 'hours', count: 2 }]],
  ])('%d s', (seconds, parts) => {
    expect(waitParts(seconds)).toEqual(parts);
  });
});
