import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhn } from './luhn.js';
import { digits, withLuhnKey, withOneDigitChanged } from './test/arbitraries.js';

describe('luhn', () => {
  it.each(['0', '18', '79927398713', '10002909371', '732829320', '73282932000074'])(
    'accepts %s',
    (value) => {
      expect(luhn(value)).toBe(true);
    },
  );

  it.each(['1', '79927398710', '10002727378', '732829321'])('refuses %s', (value) => {
    expect(luhn(value)).toBe(false);
  });

  it.each(['', ' ', '7992 7398 713', '7992739871a', '-18', '٣', '１８'])(
    'refuses the non-digit input %j',
    (input) => {
      expect(luhn(input)).toBe(false);
    },
  );

  it('accepts any body followed by its computed key', () => {
    fc.assert(fc.property(digits(), (body) => luhn(withLuhnKey(body))));
  });

  it('detects any single-digit change of a valid number', () => {
    fc.assert(
      fc.property(
        digits()
          .map(withLuhnKey)
          .chain((valid) => withOneDigitChanged(valid)),
        (corrupted) => !luhn(corrupted),
      ),
    );
  });
});
