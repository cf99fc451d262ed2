// fast-check arbitraries shared by the validation tests (never imported by production code).
import fc from 'fast-check';
import { insKey } from '../ins.js';
import { luhn } from '../luhn.js';

/** Zero-padded decimal. */
export const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** A string of `length` ASCII digits (any length when omitted). */
export const digits = (length?: number): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.constantFrom(...'0123456789'),
    ...(length === undefined ? {} : { minLength: length, maxLength: length }),
  });

/** Appends the Luhn check digit to `body`. */
export function withLuhnKey(body: string): string {
  for (let key = 0; key <= 9; key += 1) if (luhn(`${body}${key}`)) return `${body}${key}`;
  throw new Error('unreachable: one key in 0–9 always fits');
}

/** A number of `length` digits passing Luhn. */
export const luhnNumber = (length: number): fc.Arbitrary<string> =>
  digits(length - 1).map(withLuhnKey);

/** Replaces the digit at a random position with another digit. */
export const withOneDigitChanged = (value: string): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: 0, max: value.length - 1 }), fc.integer({ min: 1, max: 9 }))
    .map(
      ([index, shift]) =>
        `${value.slice(0, index)}${(Number(value[index]) + shift) % 10}${value.slice(index + 1)}`,
    );

const range = (min: number, max: number, width: number): fc.Arbitrary<string> =>
  fc.integer({ min, max }).map((n) => pad(n, width));

/** The first 13 characters of an INS whose structure matches domain-rules.md. */
export const insBody: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('1', '2', '3', '4', '7', '8'),
    range(0, 99, 2),
    fc.oneof(range(1, 12, 2), range(20, 42, 2), range(50, 99, 2)),
    fc.oneof(
      // Metropolitan or Corsican department + commune.
      fc.tuple(fc.oneof(range(1, 96, 2), fc.constantFrom('2A', '2B')), range(1, 999, 3)),
      // Overseas: 97x/98x + 2-digit commune.
      fc.tuple(
        fc.constantFrom('97', '98').chain((d) => range(0, 9, 1).map((x) => d + x)),
        range(1, 99, 2),
      ),
      // Born abroad: 99 + country.
      fc.tuple(fc.constant('99'), range(1, 999, 3)),
    ),
    range(1, 999, 3),
  )
  .map(([sex, year, month, [department, commune], order]) =>
    [sex, year, month, department, commune, order].join(''),
  );

/** A valid INS: a structured body and its key. */
export const validIns: fc.Arbitrary<string> = insBody.map((body) => body + pad(insKey(body), 2));

/**
 * A metropolitan mobile number in national form (06 or 07 + 8 digits), possibly unallocated;
 * 069x and 0639 are left out as they belong to overseas departments.
 */
export const frenchMobileCandidate: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('06', '07'), digits(8))
  .map(([prefix, rest]) => prefix + rest)
  .filter((number) => !/^06(?:9|39)/.test(number));

/** Arbitrary text, including astral code points and lone surrogates. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string(),
);
