import { describe, expect, it } from 'vitest';
import {
  COUNTRY_CODES,
  isValidCountry,
  isValidPostalCode,
  normalizePostalCode,
} from './postal-address.js';

describe('isValidPostalCode', () => {
  it.each([
    ['75011', 'FR'],
    [' 97411 ', 'FR'],
    ['20000', 'fr'],
    ['SW1A 1AA', 'GB'],
    ['1000', 'BE'],
    ['10115', 'DE'],
    ['h2x-1y4', 'CA'],
  ])('accepts %j in %s', (code, country) => {
    expect(isValidPostalCode(code, country)).toBe(true);
  });

  it.each([
    ['7501', 'FR'],
    ['750110', 'FR'],
    ['75 011', 'FR'],
    ['2A004', 'FR'],
    ['', 'FR'],
    ['1', 'BE'],
    ['-1000', 'BE'],
    ['12345678901', 'DE'],
    ['75011!', 'GB'],
  ])('refuses %j in %s', (code, country) => {
    expect(isValidPostalCode(code, country)).toBe(false);
  });

  it('normalises spaces and case', () => {
    expect(normalizePostalCode('  sw1a   1aa ')).toBe('SW1A 1AA');
  });
});

describe('isValidCountry', () => {
  it('knows France, its overseas regions and other countries, in any case', () => {
    for (const code of ['FR', 'fr', ' RE ', 'GP', 'BE', 'DZ', 'MA']) {
      expect(isValidCountry(code)).toBe(true);
    }
  });

  it.each(['', 'F', 'FRA', 'XX', 'ZZ', '12'])('refuses %j', (code) => {
    expect(isValidCountry(code)).toBe(false);
  });

  it('lists upper-case two-letter codes, sorted, FR among them', () => {
    expect(COUNTRY_CODES).toContain('FR');
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
  });
});
