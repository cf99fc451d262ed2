import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insKey, isValidIns, normalizeIns } from './ins.js';
import { insBody, pad, validIns } from './test/arbitraries.js';

describe('isValidIns', () => {
  it.each([
    '295109912611193',
    '253072B07300470',
    '253072A07300443',
    '279035121518989',
    '185057800608491',
    '290029710112332',
    '185329912304574',
    '170012000401235',
  ])('accepts the domain-rules vector %s', (ins) => {
    expect(isValidIns(ins)).toBe(true);
  });

  it.each([
    ['295109912611199', 'key'],
    ['185057800608492', 'key'],
    ['253072C07300443', 'structure'],
    ['985057800608491', 'structure'],
    ['185137800608491', 'structure'],
    ['185057800000091', 'structure'],
  ])('refuses the domain-rules vector %s (%s)', (ins) => {
    expect(isValidIns(ins)).toBe(false);
  });

  it.each([
    [' 2 95 10 99 126 111 93 ', 'spaces'],
    ['253072b07300470', 'lower-case Corsica'],
    ['253072a07300443', 'lower-case Corsica'],
    ['2\u00a095\u00a010\u00a099\u00a0126\u00a0111\u00a093', 'no-break spaces'],
  ])('accepts %j (%s)', (ins) => {
    expect(isValidIns(ins)).toBe(true);
  });

  it.each(['', '29510991261119', '2951099126111930', '295109912611193x', '29510-9912611193'])(
    'refuses the malformed value %j',
    (ins) => {
      expect(isValidIns(ins)).toBe(false);
    },
  );

  it('accepts any well-structured body followed by its computed key', () => {
    fc.assert(fc.property(validIns, (ins) => isValidIns(ins)));
  });

  it('refuses a well-structured body followed by any other key', () => {
    fc.assert(
      fc.property(insBody, fc.integer({ min: 0, max: 99 }), (body, key) => {
        fc.pre(key !== insKey(body));
        return !isValidIns(body + pad(key, 2));
      }),
    );
  });
});

describe('insKey', () => {
  it.each([
    ['2951099126111', 93],
    ['253072B073004', 70],
    ['253072A073004', 43],
    ['253072a073004', 43],
    ['1850578006084', 91],
  ])('computes the key of %s as %i', (body, key) => {
    expect(insKey(body)).toBe(key);
  });

  it('counts 2A as 19 and 2B as 18', () => {
    expect(insKey('253072A073004')).toBe(insKey('2530719073004'));
    expect(insKey('253072B073004')).toBe(insKey('2530718073004'));
  });

  it('always returns a key from 1 to 97', () => {
    fc.assert(
      fc.property(insBody, (body) => {
        const key = insKey(body);
        return Number.isInteger(key) && key >= 1 && key <= 97;
      }),
    );
  });

  it.each(['', '295109912611', '29510991261119', '2530C2A073004', '2A3072B073004'])(
    'throws a RangeError on the malformed body %j',
    (body) => {
      expect(() => insKey(body)).toThrow(RangeError);
    },
  );
});

describe('normalizeIns', () => {
  it('removes whitespace and upper-cases', () => {
    expect(normalizeIns(' 2 53 07 2b 073 004 70\t')).toBe('253072B07300470');
  });
});
