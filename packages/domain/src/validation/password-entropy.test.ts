import { describe, expect, it } from 'vitest';
import { LIMITS } from '../constants.js';
import { checkPassword, passwordEntropyBits } from './password.js';

// ANS référentiel d'identification électronique: a password set or renewed has at least 50 bits,
// estimated as length × log2(alphabet of the classes used) (ANSSI, CNIL délibération 2022-100).
describe('passwordEntropyBits', () => {
  it.each<[string, number]>([
    ['', 0],
    ['12345678', 8 * Math.log2(10)],
    ['abcdefgh', 8 * Math.log2(26)],
    ['Xk9pLm2q', 8 * Math.log2(62)],
    ['Xk9pLm2qw', 9 * Math.log2(62)],
    ['Xk9pL-2q', 8 * Math.log2(95)],
    ['xk9plm2qwe', 10 * Math.log2(36)],
  ])('gives %j %f bits', (pw, bits) => {
    expect(passwordEntropyBits(pw)).toBeCloseTo(bits, 10);
  });

  it('counts characters after NFKC, not UTF-16 units', () => {
    expect(passwordEntropyBits('Xk9pL😀2q')).toBeCloseTo(8 * Math.log2(95), 10);
    // The ligature "ﬁ" is two letters once normalised.
    expect(passwordEntropyBits('ﬁ')).toBeCloseTo(2 * Math.log2(26), 10);
  });

  it('counts a letter outside ASCII in its case’s class, never more', () => {
    expect(passwordEntropyBits('éléphant')).toBeCloseTo(8 * Math.log2(26), 10);
  });
});

describe('the 50-bit rule in checkPassword', () => {
  it('is 50 bits', () => {
    expect(LIMITS.passwordMinEntropyBits).toBe(50);
  });

  it('refuses 8 characters of digits and both cases (47.6 bits)', () => {
    expect(checkPassword('Xk9pLm2q')).toEqual(['too_weak']);
  });

  it('accepts 9 characters of digits and both cases (53.6 bits)', () => {
    expect(checkPassword('Xk9pLm2qw')).toEqual([]);
  });

  it('accepts 8 characters with a symbol as well (52.6 bits)', () => {
    expect(checkPassword('Xk9pL-2q')).toEqual([]);
  });

  it('every accepted password has at least 50 bits', () => {
    for (const pw of ['Xk9pLm2qw', 'Xk9pL-2q', 'Correct-Horse-7-Battery', 'Ünïcödé9x']) {
      expect(checkPassword(pw)).toEqual([]);
      expect(passwordEntropyBits(pw)).toBeGreaterThanOrEqual(50);
    }
  });
});
