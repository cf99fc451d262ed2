import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidFirstName, isValidName } from './names.js';

const VALID_NAMES = [
  'Jean',
  'Jean-Pierre',
  'Marie Claire',
  "D'Artagnan",
  'D’Artagnan',
  "N'Golo",
  'Zoë',
  'Élodie',
  'Françoise',
  'Ægir',
  'Łukasz',
  'Ştefan',
  'E\u0301lodie',
  'محمد',
  'Ли',
  'Le Goff',
  'de la Fontaine',
  'A',
  '  Jean  ',
  'x'.repeat(100),
];

const INVALID_NAMES: [string, string][] = [
  ['', 'empty'],
  ['   ', 'blank'],
  ['x'.repeat(101), '101 characters'],
  ['Jean2', 'digit'],
  ['Jean_Pierre', 'underscore'],
  ['Jean.Pierre', 'dot'],
  ['Jean@', 'symbol'],
  ['-', 'hyphen only'],
  ["'", 'apostrophe only'],
  ['Jean\tPierre', 'tab'],
  ['Jean\nPierre', 'new line'],
  ['Jean-', 'trailing hyphen'],
  ['-Jean', 'leading hyphen'],
  ['<script>', 'markup'],
  ['😀', 'emoji'],
];

describe.each([
  ['isValidFirstName', isValidFirstName],
  ['isValidName', isValidName],
])('%s', (_name, isValid) => {
  it.each(VALID_NAMES)('accepts %j', (name) => {
    expect(isValid(name)).toBe(true);
  });

  it.each(INVALID_NAMES)('refuses %j (%s)', (name) => {
    expect(isValid(name)).toBe(false);
  });

  it('counts characters, not UTF-16 units, against the limit of 100', () => {
    expect(isValid('𝒜'.repeat(100))).toBe(true);
    expect(isValid('𝒜'.repeat(101))).toBe(false);
  });

  it('accepts any run of letters, single spaces, hyphens and apostrophes between words', () => {
    const word = fc.string({
      unit: fc.constantFrom(...'aàbcçdeéèêëfghiïîjklmnoôpqrstuùvwxyzÿæœ'),
      minLength: 1,
      maxLength: 12,
    });
    const separator = fc.constantFrom(' ', '-', "'", '’');
    fc.assert(
      fc.property(fc.array(fc.tuple(separator, word), { maxLength: 5 }), word, (rest, first) => {
        const name = first + rest.map(([sep, w]) => sep + w).join('');
        fc.pre([...name].length <= 100);
        return isValid(name);
      }),
    );
  });
});
