import { describe, expect, it } from 'vitest';
import { isValidInseeCode, normalizeInseeCode } from './insee.js';

describe('isValidInseeCode', () => {
  it.each(['2A004', '97101', '99109', '75056', '99134', '99352', '2B033', '98799', '01001'])(
    'accepts %s',
    (code) => {
      expect(isValidInseeCode(code)).toBe(true);
    },
  );

  it.each([
    ['96001', 'department 96 is no longer a commune prefix'],
    ['2C004', 'Corsica is 2A or 2B'],
    ['7505', 'four characters'],
    ['750560', 'six characters'],
    ['00123', 'department 00'],
    ['20123', 'department 20 is split into 2A/2B'],
    ['97901', '979 is not an overseas department'],
    ['98301', '983 is not an overseas collectivity'],
    ['', 'empty'],
    ['75 056', 'inner space'],
  ])('refuses %j (%s)', (code) => {
    expect(isValidInseeCode(code)).toBe(false);
  });

  it('ignores surrounding whitespace and case', () => {
    expect(isValidInseeCode(' 2a004 ')).toBe(true);
    expect(normalizeInseeCode(' 2b033 ')).toBe('2B033');
  });
});
